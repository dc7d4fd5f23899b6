import { Hono } from 'hono';
import { databaseAnswers } from '../../storage/db';
import { redisAnswers } from '../../storage/redis';
import type { ApiContext } from './context';
import { reportDay } from '../../lib/domain/market-data/report-day';

/** A shared dependency's state on /api/health: `off` is Redis without REDIS_URL. */
export type DependencyState = 'ok' | 'degraded' | 'off';

/**
 * /health: readiness (ok, degraded, building, draining or no-build), build time, report date, tickers, the report's
 * source (sample or exports), the report's age (`current`, `behind` one trading day, `stale` past one), the provider with its last call's success (null before any), and the accounts database
 * and Redis (`ok`, `degraded` when they do not answer, Redis `off` without REDIS_URL).
 */
export function healthRoutes(context: ApiContext): Hono {
  return new Hono().get('/health', async (c) => {
    const [site, databaseOk, redisOk] = await Promise.all([
      context.site.current().catch(() => null),
      databaseAnswers(context.accounts.database),
      context.redis === null ? null : redisAnswers(context.redis),
    ]);
    const readiness = context.readiness();
    const ready = site !== null && readiness === 'ready';
    const database: DependencyState = databaseOk ? 'ok' : 'degraded';
    const redis: DependencyState = redisOk === null ? 'off' : redisOk ? 'ok' : 'degraded';
    const body = {
      // A load balancer takes a process out while it is `building` its first site or `draining` after SIGTERM.
      // `degraded` keeps 200: every process shares the database and Redis, so taking them all out would only stop the
      // pages and quotes that still work; monitoring alerts on the status instead.
      status: readiness !== 'ready' ? readiness : site === null ? 'no-build' : database === 'degraded' || redis === 'degraded' ? 'degraded' : 'ok',
      builtAt: site?.builtAt ?? null,
      reportDate: site?.reportDate ?? null,
      ...reportAge(site?.reportDate, context.now()),
      tickers: site?.records.size ?? 0,
      // `sample`: the report is the generated sample exports, and every page says so.
      source: site?.source ?? null,
      provider: context.provider.status(),
      database,
      redis,
    };
    return c.json(body, ready ? 200 : 503, { 'Cache-Control': 'no-store' });
  });
}

/** `report`: `current` (the latest trading day's), `behind` (one session opened since), `stale` (more); null without a build. */
function reportAge(reportDate: string | undefined, now: number): { report: 'current' | 'behind' | 'stale' | null; tradingDaysBehind: number | null } {
  if (reportDate === undefined) return { report: null, tradingDaysBehind: null };
  const day = reportDay(reportDate, now);
  return { report: day.current ? 'current' : day.stale ? 'stale' : 'behind', tradingDaysBehind: day.behind };
}
