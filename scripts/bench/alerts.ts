/**
 * Section 7, alerts: the digest of a report for 10,000 users watching 20 tickers each, composed and queued
 * in at most 10 s with the process under 500 MB, then sent to a fake SMTP server on loopback (smtp-server, which reads
 * and drops each message), in a child process of its own.
 */
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { type BenchContext, type Figure, figure, round } from './figures';
import { runTsx } from './process';
import { PUSH_NOTE, pushFigures } from './push';

const MIB = 1024 ** 2;
const USERS = 10_000;
const TICKERS_EACH = 20;

/** How the section measures, once for the table's header. */
export const ALERTS_NOTE = `A fresh SQLite accounts database (the real migrations) gets ${USERS.toLocaleString('en-US')} users, each watching ${TICKERS_EACH} of 500 tickers with alerts on; on the report a fifth of the tickers qualify. Timed: the report's events computed and stored, and every digest composed (text and HTML) and written to the queue. Then the queue is sent through nodemailer's pool to a fake SMTP server on loopback that reads and drops each message. All in one \`tsx\` process; peak RSS is its whole tree, sampled from /proc every 100 ms (setup included).${PUSH_NOTE}`;

/** Runs the digest bench once. */
export async function alertsSection(ctx: BenchContext): Promise<Figure[]> {
  const dir = join(ctx.tmp, 'alerts');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received += 1;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  try {
    ctx.log(`  ${USERS.toLocaleString('en-US')} users x ${TICKERS_EACH} tickers: setting up, composing, queueing and sending...`);
    const result = await runTsx(ctx.root, 'scripts/bench/alerts-one.ts', [dir, url, String(USERS), String(TICKERS_EACH)], process.env);
    const line = result.stdout.trim().split('\n').pop() ?? '';
    if (result.code !== 0 || !line.startsWith('{')) throw new Error(`the digest run failed (exit ${result.code}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const answer = JSON.parse(line) as { events: number; queued: number; composeSeconds: number; sent: number; sendSeconds: number };
    ctx.log(`    ${answer.events} events, ${answer.queued} digests queued in ${round(answer.composeSeconds, 2)} s; ${answer.sent} sent in ${round(answer.sendSeconds)} s; the fake server took ${received}`);
    const method = `${answer.events} events, ${answer.queued.toLocaleString('en-US')} digests`;
    const digest = [
      figure('alerts', { name: `digest, ${USERS.toLocaleString('en-US')} users x ${TICKERS_EACH} tickers: composed and queued`, value: round(answer.composeSeconds, 2), unit: 's', budget: { op: '<=', limit: 10 }, method }),
      figure('alerts', {
        name: 'digest: sent to the fake SMTP server',
        value: round(answer.sendSeconds, 1),
        unit: 's',
        method: `${answer.sent.toLocaleString('en-US')} sent, ${received.toLocaleString('en-US')} received (${round(answer.sent / answer.sendSeconds, 0)} a second), nodemailer pool`,
      }),
      figure('alerts', {
        name: 'digest: peak RSS',
        value: result.peakTreeRssBytes === null ? null : round(result.peakTreeRssBytes / MIB, 0),
        unit: 'MiB',
        budget: { op: '<', limit: 500 },
        method: 'sum over the process tree, /proc every 100 ms, setup and sending included',
        ...(result.peakTreeRssBytes === null ? { missing: 'not available (/proc unreadable)' } : {}),
      }),
    ];
    return [...digest, ...(await pushFigures(ctx))];
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
