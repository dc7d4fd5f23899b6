/**
 * /api/alerts (issue 14): a signed-in user's alert settings and private feed token; the private feed itself, by its
 * token alone; and the digest's unsubscribe link, which works without signing in (GET shows a button, POST is the
 * one-click unsubscribe mail clients send for `List-Unsubscribe-Post`, so no origin check applies to it).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { ALERT_KINDS, cleanKinds } from '../../lib/domain/alerts';
import { signalFeed } from '../../lib/domain/feeds';
import { AlertStore } from '../../storage/alerts';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { SECURITY_HEADERS } from '../security';
import { validate } from '../validate';
import { lockedForCaller, type ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };
/** How many of a user's latest events the private feed lists. */
export const PRIVATE_FEED_ITEMS = 50;

const Address = z.email('expected an email address, such as you@example.com').max(254, 'at most 254 characters');
const Settings = z
  .object({
    enabled: z.boolean().optional(),
    kinds: z.array(z.string().max(20, 'at most 20 characters')).max(ALERT_KINDS.length * 2, `at most ${ALERT_KINDS.length} kinds`).optional(),
    address: z.union([z.literal(''), z.null(), Address]).optional(),
  })
  .strict();
const EXAMPLE = `{"enabled": true, "kinds": ["entered", "exited", "reversed"], "address": "you@example.com"}`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A small page of its own (no script), for the unsubscribe link opened in a browser. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** A 303 back to /account's Alerts section with an outcome its static page shows by `:target`. */
function back(c: Context, outcome: string): Response {
  const response = c.redirect(`/account#${outcome}`, 303);
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** Mounted at /api/alerts. */
export function alertRoutes(context: ApiContext): Hono {
  const { accounts } = context;
  const store = new AlertStore(accounts.database.db, context.now);
  const html = (text: string, status: 200 | 404 = 200) =>
    new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
  const signedIn = new Hono<SessionEnv>()
    .use(trustedOrigin(context.siteOrigins), sessionUser(accounts.session), requireUser)
    .get('/settings', async (c) => c.json({ ...(await store.settings(c.var.user!.id)), kindsAvailable: ALERT_KINDS, proOnly: accounts.paywall, isPremium: c.var.user!.isPremium }, 200, NO_STORE))
    .put('/settings', validate('json', Settings, EXAMPLE), async (c) => {
      const body = c.req.valid('json');
      let kinds;
      if (body.kinds !== undefined) {
        const clean = cleanKinds(body.kinds);
        if ('problem' in clean) throw refusal(400, clean.problem);
        kinds = clean.kinds;
      }
      const address = body.address === undefined ? undefined : body.address === '' || body.address === null ? null : body.address.trim().toLowerCase();
      const saved = await store.saveSettings(c.var.user!.id, { enabled: body.enabled, kinds, address });
      return c.json({ ...saved, kindsAvailable: ALERT_KINDS, proOnly: accounts.paywall, isPremium: c.var.user!.isPremium }, 200, NO_STORE);
    })
    // /account's plain form (no script needed): back to the page with the outcome as the fragment.
    .post('/settings', async (c) => {
      const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>);
      const kinds = cleanKinds([form.kinds ?? []].flat().filter((value): value is string => typeof value === 'string'));
      if ('problem' in kinds) return back(c, 'alerts-kinds');
      const rawAddress = typeof form.address === 'string' ? form.address.trim() : '';
      if (rawAddress !== '' && !Address.safeParse(rawAddress).success) return back(c, 'alerts-address');
      await store.saveSettings(c.var.user!.id, { enabled: form.enabled === 'on', kinds: kinds.kinds, address: rawAddress === '' ? null : rawAddress.toLowerCase() });
      return back(c, 'alerts-saved');
    })
    .post('/feed-token', async (c) => {
      const token = await store.regenerateFeedToken(c.var.user!.id);
      const base = new URL(`/api/alerts/feed/${token}`, accounts.siteUrl).href;
      const urls = { atom: `${base}.xml`, json: `${base}.json` };
      // The account page's form without a script: the addresses on a page of their own, shown this once.
      if (/^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
        return html(
          page(
            'Your private feed',
            `<p>Add one of these addresses to your feed reader. They are shown this once; anyone with them can read the feed. A new address stops these.</p><ul><li>Atom: <code>${escapeHtml(urls.atom)}</code></li><li>JSON Feed: <code>${escapeHtml(urls.json)}</code></li></ul><p><a href="/account#alerts">Back to your account</a></p>`,
          ),
        );
      }
      return c.json(urls, 201, NO_STORE);
    });

  return new Hono()
    .get('/feed/:file{[A-Za-z0-9_-]+\\.(xml|json)}', async (c) => {
      const file = c.req.param('file');
      const [token, kind] = [file.slice(0, file.lastIndexOf('.')), file.slice(file.lastIndexOf('.') + 1)];
      const owner = await store.feedOwner(token);
      if (owner === null) throw refusal(404, 'No feed at this address: the link is wrong or was replaced. Make a new one on /account.');
      const kinds = new Set((await store.settings(owner)).kinds);
      const events = (await store.events({ tickers: await store.watched(owner), limit: PRIVATE_FEED_ITEMS * 2 })).filter((e) => kinds.has(e.kind)).slice(0, PRIVATE_FEED_ITEMS);
      // With PAYWALL=on the scores are Pro data: a Free account's feed names the changes without them.
      const isPremium = await store.isPro(owner);
      const scores = !accounts.paywall || isPremium;
      // A locked top ticker's event of the latest report would say its direction today: it says only "a top signal".
      const site = await context.site.current();
      const locked = site === null ? new Set<string>() : lockedForCaller(site, accounts.paywall, { isPremium });
      const base = new URL(`/api/alerts/feed/${token}`, accounts.siteUrl).href;
      const latest = events[0]?.reportDate;
      const feed = signalFeed({
        siteUrl: accounts.siteUrl,
        title: `${context.siteName}: your watched stocks`,
        description: 'New signals, exits and reversals of the stocks you watch.',
        links: { atom: `${base}.xml`, json: `${base}.json` },
        events,
        updated: latest ? new Date(`${latest}T00:00:00Z`) : new Date(0),
        showScores: () => scores,
        lockedSignal: (event) => event.reportDate === site?.reportDate && locked.has(event.ticker),
      });
      const type = kind === 'xml' ? 'application/atom+xml; charset=utf-8' : 'application/feed+json; charset=utf-8';
      return c.body(kind === 'xml' ? feed.atom1() : feed.json1(), 200, { 'Content-Type': type, 'Cache-Control': 'private, max-age=300', 'Referrer-Policy': 'no-referrer' });
    })
    .get('/unsubscribe', (c) => {
      const token = c.req.query('token') ?? '';
      const action = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
      return html(
        page(
          'Unsubscribe from alert emails',
          `<p>Stop the daily alert emails of ${escapeHtml(context.siteName)}? You can turn them on again on your account page.</p>` +
            `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    })
    .post('/unsubscribe', async (c) => {
      const done = await store.unsubscribe(c.req.query('token') ?? '');
      if (!done) return html(page('This unsubscribe link is not valid', '<p>It may be incomplete: copy the whole link from the email, or turn alerts off on your account page.</p>'), 404);
      return html(page('You are unsubscribed', `<p>No more alert emails will be sent. To turn them on again, go to <a href="/account#alerts">your account</a>.</p>`));
    })
    .route('/', signedIn as unknown as Hono);
}
