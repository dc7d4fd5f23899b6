/**
 * The operator API under /api/admin, behind /upload and /admin: publishing status, uploads checked and
 * previewed, publishes queued one at a time, the run log, users and their Pro grants, company-information coverage,
 * and API tokens. Every route checks the role on the server (401 signed out, 403 unless ADMIN_EMAILS lists the
 * user's confirmed email) and every change passes the origin check; `POST /exports` also takes `Authorization: Bearer
 * TOKEN` (a token works while its creator holds the role).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { z } from 'zod';
import type { FileProblem, PublishResult, RunTrigger } from '../../lib/domain/operator/operator';
import { createApiToken, listApiTokens, revokeApiToken, verifyApiToken } from '../../storage/api-tokens';
import { GRANT_MESSAGES, grantPro, revokePro } from '../../storage/plan-grants';
import type { RunLog } from '../../storage/run-log';
import { readBuildInfo } from '../../storage/site-index';
import { findUser, userCounts } from '../../storage/users';
import { trustedOrigin } from '../auth/origin';
import { requireOperator, type SessionEnv, sessionUser } from '../auth/session';
import { refusal } from '../errors';
import type { PublishJobView, PublishQueue } from '../publish-queue';
import { readUploads, uploadBodyLimit } from '../uploads';
import { validate } from '../validate';
import type { ApiContext } from './context';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** What the operator routes add to every route group's context. */
export interface AdminContext {
  /** The publish queue, or null when this server was started without the daily job's tools. */
  queue: PublishQueue | null;
  runLog: RunLog;
  distDir: string;
}

type AdminEnv = SessionEnv & { Variables: { trigger: RunTrigger } };
type AdminContextOf = Parameters<MiddlewareHandler<AdminEnv>>[0];
// The body limit in this group's env, so the routes after it keep their answer types.
const uploadLimit: MiddlewareHandler<AdminEnv> = uploadBodyLimit;

const FILES_REFUSED = 'Some files were refused: nothing was stored or published.';

/** A queued publish's answer: the job, a sentence on the queue ahead of it, and where to follow it. */
function queuedAnswer(view: PublishJobView) {
  const message =
    view.ahead === 0
      ? 'Publishing: the daily job runs now.'
      : `Another publish is running: yours waits in the queue (${view.ahead} ${view.ahead === 1 ? 'job' : 'jobs'} ahead of it).`;
  return { job: view, message, status: `/api/admin/jobs/${view.id}` };
}

const ProBodySchema = z.object({ email: z.string().trim().toLowerCase().email('expected an email address'), pro: z.boolean() });
const TokenBodySchema = z.object({ label: z.string().trim().min(1, 'name the token (what uses it)').max(80) });
const UserQuery = z.object({ email: z.string().trim().max(320).optional() });

/** The /api/admin routes. */
export function adminRoutes(context: ApiContext, admin: AdminContext) {
  const db = context.accounts.database.db;
  const stripe = context.accounts.stripe !== null;
  const operators = new Set(context.accounts.adminEmails);
  const operator = every(trustedOrigin(context.siteOrigins), sessionUser(context.accounts.session), requireOperator) as MiddlewareHandler<AdminEnv>;
  const asOperator: MiddlewareHandler<AdminEnv> = async (c, next) => operator(c, async () => {
    c.set('trigger', 'upload');
    await next();
  });
  // Automation sends a token and no cookie; a browser's session gets the same checks as every other route.
  const tokenOrOperator: MiddlewareHandler<AdminEnv> = async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined) return asOperator(c, next);
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    const entry = token === undefined ? null : await verifyApiToken(db, token, operators, context.now());
    if (entry === null) {
      return c.json({ error: 'The API token is unknown, revoked, or its creator is no longer a confirmed operator: create one on /admin and send it as "Authorization: Bearer TOKEN".' }, 401, {
        ...NO_STORE,
        'WWW-Authenticate': 'Bearer',
      });
    }
    c.set('trigger', 'token');
    await next();
  };
  const queue = (): PublishQueue => {
    if (admin.queue === null) throw refusal(503, 'This server was started without the daily job: start it with "npm start" to publish from the browser.');
    return admin.queue;
  };

  /** Reads the uploaded files and queues their publish: the queued job, or the problems of the refused files. */
  const enqueue = async (c: AdminContextOf): Promise<{ problems: FileProblem[] } | { publishes: PublishQueue; view: PublishJobView; done: Promise<PublishResult> }> => {
    const publishes = queue();
    const { files, problems } = await readUploads(c);
    const refused = problems.length > 0 ? problems : await publishes.tools.validate(files);
    if (refused.length > 0) return { problems: refused };
    return { publishes, ...publishes.enqueue(files, c.var.trigger) };
  };

  return new Hono<AdminEnv>()
    .get('/status', asOperator, async (c) => {
      const build = await readBuildInfo(admin.distDir);
      return c.json(
        {
          reportDate: build?.reportDate ?? null,
          builtAt: build?.builtAt ?? null,
          tickers: build?.tickers ?? 0,
          reportDates: build?.reportDates ?? 0,
          provider: context.provider.status(),
          queue: admin.queue?.pending ?? { running: false, waiting: 0 },
        },
        200,
        NO_STORE,
      );
    })
    .post('/uploads/check', asOperator, uploadLimit, async (c) => {
      const tools = queue().tools;
      const { files, problems, notes } = await readUploads(c);
      if (problems.length > 0) return c.json({ error: FILES_REFUSED, problems }, 422, NO_STORE);
      const answer = await tools.preview(files);
      if ('problems' in answer) return c.json({ error: FILES_REFUSED, problems: answer.problems }, 422, NO_STORE);
      return c.json({ preview: { ...answer.preview, warnings: [...notes, ...answer.preview.warnings] } }, 200, NO_STORE);
    })
    .post('/uploads', asOperator, uploadLimit, async (c) => {
      const job = await enqueue(c);
      if ('problems' in job) return c.json({ error: FILES_REFUSED, problems: job.problems }, 422, NO_STORE);
      return c.json(queuedAnswer(job.view), 202, { ...NO_STORE, Location: queuedAnswer(job.view).status });
    })
    .post('/exports', tokenOrOperator, uploadLimit, async (c) => {
      const wait = c.req.query('wait') !== undefined && c.req.query('wait') !== 'false';
      const job = await enqueue(c);
      if ('problems' in job) return c.json({ error: FILES_REFUSED, problems: job.problems }, 422, NO_STORE);
      if (!wait) return c.json(queuedAnswer(job.view), 202, { ...NO_STORE, Location: queuedAnswer(job.view).status });
      const result = await job.done;
      return c.json({ job: job.publishes.view(job.view.id), result }, result.outcome === 'published' || result.outcome === 'up-to-date' ? 200 : 422, NO_STORE);
    })
    .get('/jobs/:id', tokenOrOperator, (c) => {
      const job = queue().view(c.req.param('id'));
      if (job === null) throw refusal(404, 'No such publish job: it may be older than the last 50; see the run log on /admin.');
      return c.json({ job }, 200, NO_STORE);
    })
    .get('/runs', asOperator, async (c) => c.json({ runs: await admin.runLog.recent() }, 200, NO_STORE))
    .get('/users', asOperator, validate('query', UserQuery), async (c) => {
      const { email } = c.req.valid('query');
      const counts = await userCounts(db, stripe, context.now());
      const user = email ? await findUser(db, email, stripe) : null;
      return c.json({ counts, user, searched: email ?? null }, 200, NO_STORE);
    })
    .post('/users/pro', asOperator, validate('json', ProBodySchema, '{"email": "reader@example.com", "pro": true}'), async (c) => {
      const { email, pro } = c.req.valid('json');
      const outcome = pro ? await grantPro(db, email, context.now(), c.var.user!.id) : await revokePro(db, email);
      if (outcome === 'unknown-email') throw refusal(404, GRANT_MESSAGES[outcome](email));
      return c.json({ outcome, message: GRANT_MESSAGES[outcome](email), user: await findUser(db, email, stripe) }, 200, NO_STORE);
    })
    .get('/company-info', asOperator, async (c) => {
      const site = await context.site.current();
      const store = await context.companies.read();
      const tickers = site === null ? [] : [...site.records.keys()];
      const stored = tickers.map((t) => store.companies[t]).filter((info) => info !== undefined);
      return c.json(
        {
          provider: context.provider.name,
          tickers: tickers.length,
          stored: stored.length,
          withDescription: stored.filter((i) => i.description).length,
          withWebsite: stored.filter((i) => i.homepageUrl).length,
          withLogo: stored.filter((i) => i.logoUrl).length,
        },
        200,
        NO_STORE,
      );
    })
    .get('/tokens', asOperator, async (c) => c.json({ tokens: await listApiTokens(db) }, 200, NO_STORE))
    .post('/tokens', asOperator, validate('json', TokenBodySchema, '{"label": "nightly export push"}'), async (c) => {
      const { token, entry } = await createApiToken(db, c.req.valid('json').label, c.var.user!, context.now());
      return c.json({ token, entry, note: 'Copy the token now: it is shown only once and stored hashed.' }, 201, NO_STORE);
    })
    .post('/tokens/:id/revoke', asOperator, async (c) => {
      if (!(await revokeApiToken(db, c.req.param('id'), context.now()))) throw refusal(404, 'No live token has this id: it may be revoked already.');
      return c.json({ revoked: c.req.param('id') }, 200, NO_STORE);
    });
}
