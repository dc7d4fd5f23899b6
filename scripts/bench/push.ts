/**
 * The alerts section's own rules and Web Push: 100,000 users x 20 rules fired against one report (at most 10 s, the
 * process under 500 MiB), and 10,000 notifications posted to the fake push service on loopback (at least 500 a
 * second), which checks each VAPID signature and decrypts each body in this process while the child sends.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFakePush } from '../../tests/fixtures/fake-push';
import { type BenchContext, type Figure, figure, round } from './figures';
import { runTsx } from './process';

const MIB = 1024 ** 2;
const USERS = 100_000;
const RULES_EACH = 20;
const PUSHES = 10_000;

export const PUSH_NOTE = ` Own rules and push: a fresh SQLite database gets ${USERS.toLocaleString('en-US')} users with ${RULES_EACH} rules each (crossings and moves on 500 tickers, every ticker moving on the report; the rows made by SQL in the database, untimed); timed, every rule fired and what fired stored. Then ${PUSHES.toLocaleString('en-US')} of the users, each subscribed, get one notification each: encrypted and signed by web-push in the child, posted over kept-alive connections to the fake push service (tests/fixtures/fake-push.ts) in the bench's own process, which verifies the VAPID JWT and decrypts every body.`;

export async function pushFigures(ctx: BenchContext): Promise<Figure[]> {
  const dir = join(ctx.tmp, 'push');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const fake = await startFakePush();
  try {
    const subscriptions = Array.from({ length: PUSHES }, (_, i) => fake.subscribe(`s${i}`));
    await writeFile(join(dir, 'subscriptions.json'), JSON.stringify(subscriptions));
    ctx.log(`  ${USERS.toLocaleString('en-US')} users x ${RULES_EACH} rules, ${PUSHES.toLocaleString('en-US')} pushes: setting up, firing, sending...`);
    const result = await runTsx(ctx.root, 'scripts/bench/push-one.ts', [dir, join(dir, 'subscriptions.json'), String(USERS), String(RULES_EACH)], process.env);
    const line = result.stdout.trim().split('\n').pop() ?? '';
    if (result.code !== 0 || !line.startsWith('{')) throw new Error(`the push run failed (exit ${result.code}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const answer = JSON.parse(line) as { rules: number; rulesNote: string; rulesSeconds: number; setupRss: number; rulesRss: number; pushRss: number; pushed: number; pushFailed: number; pushSeconds: number };
    const verified = fake.received.filter((r) => r.problem === null && r.payload !== null).length;
    ctx.log(`    ${answer.rulesNote} in ${round(answer.rulesSeconds, 2)} s; ${answer.pushed} pushed in ${round(answer.pushSeconds, 1)} s, ${verified} verified and decrypted`);
    return [
      figure('alerts', { name: `rules, ${USERS.toLocaleString('en-US')} users x ${RULES_EACH}: fired and stored`, value: round(answer.rulesSeconds, 2), unit: 's', budget: { op: '<=', limit: 10 }, method: answer.rulesNote }),
      figure('alerts', {
        name: 'rules and push: peak RSS',
        value: result.peakTreeRssBytes === null ? null : round(result.peakTreeRssBytes / MIB, 0),
        unit: 'MiB',
        budget: { op: '<', limit: 500 },
        method: `sum over the child's process tree, /proc every 100 ms, setup and sending included; the process alone: ${round(answer.setupRss / MIB, 0)} MiB after the setup, ${round(answer.rulesRss / MIB, 0)} after the rules, ${round(answer.pushRss / MIB, 0)} after the push`,
        ...(result.peakTreeRssBytes === null ? { missing: 'not available (/proc unreadable)' } : {}),
      }),
      figure('alerts', {
        name: `push: ${PUSHES.toLocaleString('en-US')} notifications to the fake push service`,
        value: round(answer.pushed / answer.pushSeconds, 0),
        unit: '/s',
        budget: { op: '>=', limit: 500 },
        method: `${answer.pushed.toLocaleString('en-US')} sent in ${round(answer.pushSeconds, 1)} s, ${verified.toLocaleString('en-US')} verified and decrypted, ${answer.pushFailed} failed`,
      }),
    ];
  } finally {
    await fake.close();
  }
}
