/**
 * What an operator and a load balancer need from a running process (docs/deploy.md): structured logs with a request
 * id (pino: JSON lines, or readable text on a terminal), answers that say when the process is building its first site
 * or draining after SIGTERM, and the shutdown itself: stop accepting, finish what is in flight, close what is open.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { pino, type Logger } from 'pino';
import type { Config } from '../config';
import type { Readiness } from './routes/context';

/** The process's logger: JSON lines, or pino-pretty's text when asked for (LOG_FORMAT=pretty) or when stdout is a terminal. */
export async function createLogger(settings: Config['logging'], destination: NodeJS.WritableStream = process.stdout): Promise<Logger> {
  const options = { level: settings.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  const pretty = settings.format === 'pretty' || (settings.format === null && (destination as { isTTY?: boolean }).isTTY === true);
  if (pretty) {
    try {
      // A development dependency: a production install without it logs JSON.
      const { default: prettyStream } = await import('pino-pretty');
      return pino(options, prettyStream({ destination, colorize: (destination as { isTTY?: boolean }).isTTY === true, sync: true }));
    } catch {
      // Not installed: JSON lines.
    }
  }
  return pino(options, destination);
}

/** A request id another hop gave (nginx's $request_id) is kept when it looks like one; anything else gets a new id. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** What requestOperations needs to know about the process. */
export interface ProcessState {
  readiness: () => Readiness;
}

/**
 * Middleware (createApp's `operations`): a request id (X-Request-Id, kept from nginx or made here) on the answer and in
 * every log line of the request, one debug line per answer and an error line per 5xx; while the first build runs, 503
 * with Retry-After for all but /api/health; while draining, `Connection: close`, so keep-alive clients (nginx) move to
 * another process.
 */
export function requestOperations(logger: Logger, state: ProcessState): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const readiness = state.readiness();
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    const log = logger.child({ reqId: requestId });
    c.set('requestLog' as never, log as never);
    const started = performance.now();
    if (readiness === 'building' && path !== '/api/health') {
      c.res = new Response('The site is being built for the first time; try again in a minute.', {
        status: 503,
        headers: { 'Retry-After': '30', 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' },
      });
    } else {
      await next();
    }
    c.res.headers.set('X-Request-Id', requestId);
    if (state.readiness() === 'draining') c.res.headers.set('Connection', 'close');
    const line = { method: c.req.method, path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 };
    if (c.res.status >= 500 && readiness === 'ready') log.error(line, 'answered with a server error');
    else log.debug(line, 'answered');
  };
}

/**
 * On SIGTERM (and SIGINT): readiness turns to `draining` (health answers 503), the server stops accepting and closes
 * its idle connections, in-flight requests finish, then `close` runs (database, Redis) and the process exits 0. Past
 * `timeoutMs` the open connections are cut and it exits 1.
 */
export function drainOnSignal(server: Server, options: { logger: Logger; timeoutMs: number; onDraining: () => void; close: () => Promise<void> }): void {
  const { logger } = options;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    options.onDraining();
    logger.info({ signal }, 'stopping: no new connections, finishing the requests in flight');
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs: options.timeoutMs }, 'requests still in flight after the shutdown timeout: closing them');
      server.closeAllConnections();
      process.exit(1);
    }, options.timeoutMs);
    timer.unref();
    server.close(() => {
      options
        .close()
        .catch((error: Error) => logger.error({ err: error }, 'closing the database or Redis failed'))
        .finally(() => {
          logger.info('stopped');
          logger.flush();
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
