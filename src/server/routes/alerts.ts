/**
 * /api/alerts: a signed-in user's alert settings and private feed token; the private feed itself, by its
 * token alone; and the digest's unsubscribe link, which works without signing in (GET shows a button, POST is the
 * one-click unsubscribe mail clients send for `List-Unsubscribe-Post`, so no origin check applies to it). A new
 * digest address gets a confirmation link by mail (GET shows a button, POST confirms: a mail scanner that opens
 * links confirms nothing); no digest goes to an address before it is confirmed.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { ALERT_KINDS, type AlertSettings, cleanKinds } from '../../lib/domain/alerts/alerts';
import { signalFeed } from '../../lib/domain/alerts/feeds';
import { type AddressLink, AlertStore } from '../../storage/alerts';
import { trustedOrigin } from '../auth/origin';
import { requireUser, type SessionEnv, type SessionUser, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import { escapeHtml } from '../../lib/domain/text/text';
import { htmlAnswer, smallPage } from '../small-page';
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

/** A 303 back to /account's Alerts section with an outcome its static page shows by `:target`. */
function back(c: Context, outcome: string): Response {
  const response = c.redirect(`/account#${outcome}`, 303);
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** A confirmation link that is unknown (used, replaced, cut short) or past its 24 hours: what to do instead. */
function linkRefused(outcome: 'expired' | 'unknown'): Response {
  return outcome === 'expired'
    ? htmlAnswer(smallPage('This confirmation link has expired', '<p>It worked for 24 hours. Send a new one from <a href="/account#alerts">your account</a>.</p>'), 410)
    : htmlAnswer(
        smallPage('This confirmation link is not valid', '<p>It was used already, replaced by a newer one, or is incomplete: copy the whole link from the email, or send a new one from <a href="/account#alerts">your account</a>.</p>'),
        404,
      );
}

/** Mounted at /api/alerts. */
export function alertRoutes(context: ApiContext) {
  const { accounts } = context;
  const store = new AlertStore(accounts.database.db, context.now);
  const confirmUrl = (token: string) => new URL(`/api/alerts/confirm?token=${token}`, accounts.siteUrl).href;

  /** Mails a new confirmation link for the user's own digest address (at most one a minute). */
  async function mailAddressLink(userId: string): Promise<AddressLink['outcome']> {
    const link = await store.addressLink(userId);
    if (link.outcome !== 'send') return link.outcome;
    const url = confirmUrl(link.token);
    await accounts.mailer.send({
      to: link.address,
      subject: `Confirm your alert address for ${context.siteName}`,
      text: `Someone asked for the daily alert emails of ${context.siteName} to be sent to this address. Confirm that you want them with this link (it works within 24 hours):\n\n${url}\n\nIf you did not ask for it, ignore this message: nothing more is sent here without it.`,
      link: url,
    });
    return 'send';
  }

  /** Saves the settings; a changed own address is mailed its confirmation link. */
  async function save(user: SessionUser, settings: Partial<AlertSettings>) {
    const before = await store.settings(user.id);
    const saved = await store.saveSettings(user.id, settings);
    const sent = saved.address !== null && saved.address !== before.address && !saved.addressConfirmed && (await mailAddressLink(user.id)) === 'send';
    return { ...saved, confirmationSent: sent };
  }

  /** Sends the confirmation link again: the own address's, or Better Auth's for the account's email. */
  async function resend(user: SessionUser): Promise<'sent' | 'wait' | 'confirmed'> {
    const settings = await store.settings(user.id);
    if (settings.address !== null) {
      const outcome = settings.addressConfirmed ? 'none' : await mailAddressLink(user.id);
      return outcome === 'send' ? 'sent' : outcome === 'wait' ? 'wait' : 'confirmed';
    }
    if (settings.accountEmailConfirmed) return 'confirmed';
    if (!(await store.claimLinkSlot(user.id))) return 'wait';
    await accounts.auth.api.sendVerificationEmail({ body: { email: user.email, callbackURL: '/account#alerts' } });
    return 'sent';
  }

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
      const saved = await save(c.var.user!, { enabled: body.enabled, kinds, address });
      return c.json({ ...saved, kindsAvailable: ALERT_KINDS, proOnly: accounts.paywall, isPremium: c.var.user!.isPremium }, 200, NO_STORE);
    })
    // /account's plain form (no script needed): back to the page with the outcome as the fragment.
    .post('/settings', async (c) => {
      const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>);
      const kinds = cleanKinds([form.kinds ?? []].flat().filter((value): value is string => typeof value === 'string'));
      if ('problem' in kinds) return back(c, 'alerts-kinds');
      const rawAddress = typeof form.address === 'string' ? form.address.trim() : '';
      if (rawAddress !== '' && !Address.safeParse(rawAddress).success) return back(c, 'alerts-address');
      await save(c.var.user!, { enabled: form.enabled === 'on', kinds: kinds.kinds, address: rawAddress === '' ? null : rawAddress.toLowerCase() });
      return back(c, 'alerts-saved');
    })
    // "Send the link again" on /account: JSON for the script, a 303 back for the plain form.
    .post('/confirmation', async (c) => {
      const outcome = await resend(c.var.user!);
      if (/^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
        return back(c, outcome === 'sent' ? 'alerts-link-sent' : outcome === 'wait' ? 'alerts-link-wait' : 'alerts-saved');
      }
      if (outcome === 'wait') return c.json({ error: 'A confirmation link was sent less than a minute ago: wait a minute, then ask again.' }, 429, { ...NO_STORE, 'Retry-After': '60' });
      return c.json({ outcome }, 200, NO_STORE);
    })
    .post('/feed-token', async (c) => {
      const token = await store.regenerateFeedToken(c.var.user!.id);
      const base = new URL(`/api/alerts/feed/${token}`, accounts.siteUrl).href;
      const urls = { atom: `${base}.xml`, json: `${base}.json` };
      // The account page's form without a script: the addresses on a page of their own, shown this once.
      if (/^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
        return htmlAnswer(
          smallPage(
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
    .get('/confirm', async (c) => {
      const token = c.req.query('token') ?? '';
      const checked = await store.checkAddressToken(token);
      if (checked.outcome !== 'pending') return linkRefused(checked.outcome);
      const action = `/api/alerts/confirm?token=${encodeURIComponent(token)}`;
      return htmlAnswer(
        smallPage(
          'Confirm your alert address',
          `<p>Send the daily alert emails of ${escapeHtml(context.siteName)} to <strong>${escapeHtml(checked.address)}</strong>?</p>` +
            `<form method="post" action="${escapeHtml(action)}"><button type="submit">Confirm this address</button></form>`,
        ),
      );
    })
    .post('/confirm', async (c) => {
      const confirmed = await store.confirmAddress(c.req.query('token') ?? '');
      if (confirmed.outcome !== 'confirmed') return linkRefused(confirmed.outcome);
      return htmlAnswer(
        smallPage(
          'Your alert address is confirmed',
          `<p>The alert emails go to <strong>${escapeHtml(confirmed.address)}</strong> from the next report on. Change it on <a href="/account#alerts">your account</a>.</p>`,
        ),
      );
    })
    .get('/unsubscribe', (c) => {
      const token = c.req.query('token') ?? '';
      const action = `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
      return htmlAnswer(
        smallPage(
          'Unsubscribe from alert emails',
          `<p>Stop the daily alert emails of ${escapeHtml(context.siteName)}? You can turn them on again on your account page.</p>` +
            `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    })
    .post('/unsubscribe', async (c) => {
      const done = await store.unsubscribe(c.req.query('token') ?? '');
      if (!done) return htmlAnswer(smallPage('This unsubscribe link is not valid', '<p>It may be incomplete: copy the whole link from the email, or turn alerts off on your account page.</p>'), 404);
      return htmlAnswer(smallPage('You are unsubscribed', `<p>No more alert emails will be sent. To turn them on again, go to <a href="/account#alerts">your account</a>.</p>`));
    })
    .route('/', signedIn);
}
