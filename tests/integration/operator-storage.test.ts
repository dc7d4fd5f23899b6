/**
 * The operator tools' tables on SQLite and on PostgreSQL: the run log, API tokens (stored hashed,
 * revocable) and the user counts, through the real /api/admin routes where there is one.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, listApiTokens, revokeApiToken, verifyApiToken } from '../../src/storage/api-tokens';
import { RunLog } from '../../src/storage/run-log';
import type { UserCounts, UserOverview } from '../../src/lib/domain/operator/operator';
import { confirmEmail } from '../fixtures/accounts';
import { type AccountServer, DATABASES, postJson, signUp, startAccountServer } from '../fixtures/account-server';

describe.each(DATABASES)('operator tables on $name', ({ url }) => {
  let server: AccountServer;
  let operator: string;

  beforeAll(async () => {
    server = await startAccountServer(await url());
    operator = await signUp(server, 'ops@example.com');
    await confirmEmail(server.accounts, 'ops@example.com');
    await signUp(server, 'reader@example.com');
  }, 120_000);
  afterAll(() => server?.close());

  it('keeps each run from start to end, newest first, with its lists', async () => {
    let clock = Date.parse('2026-11-24T08:00:00Z');
    const log = new RunLog(server.accounts.database.db, () => clock);
    const first = await log.start('cli', []);
    clock += 12_345;
    await log.finish(first, { outcome: 'published', reportDate: '2026-11-24', files: ['a.csv'], warnings: ['a.csv:3:C-Score: read as 0'], messages: [], notes: { overrides: ['rows gate accepted'] } });
    clock += 60_000;
    const second = await log.start('upload', ['b.csv']);
    clock += 2_000;
    await log.finish(second, { outcome: 'refused', reportDate: null, files: ['b.csv'], warnings: [], messages: ['Refused 1 file(s)', 'b.csv (row 2, column "C-Score"): ...'], notes: {} });
    await log.start('token', ['c.csv']);
    const runs = await log.recent();
    expect(runs.map((r) => [r.trigger, r.outcome, r.durationMs])).toEqual([['token', 'running', null], ['upload', 'refused', 2000], ['cli', 'published', 12345]]);
    expect(runs[2]).toMatchObject({ startedAt: '2026-11-24T08:00:00.000Z', finishedAt: '2026-11-24T08:00:12.345Z', reportDate: '2026-11-24', warnings: ['a.csv:3:C-Score: read as 0'], notes: { overrides: ['rows gate accepted'] } });
    expect(runs[1]!.messages).toEqual(['Refused 1 file(s)', 'b.csv (row 2, column "C-Score"): ...']);
    const answer = await server.request('/api/admin/runs', { headers: { cookie: operator } });
    expect(((await answer.json()) as { runs: unknown[] }).runs).toHaveLength(3);
  });

  it('stores a token hashed, lets it in until it is revoked', async () => {
    const db = server.accounts.database.db;
    const operators = new Set(server.accounts.adminEmails);
    const ops = await db.selectFrom('user').select(['id', 'email']).where('email', '=', 'ops@example.com').executeTakeFirstOrThrow();
    const { token, entry } = await createApiToken(db, 'nightly push', ops);
    const [row] = await db.selectFrom('api_token').selectAll().where('id', '=', entry.id).execute();
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await verifyApiToken(db, token, operators)).toMatchObject({ id: entry.id, label: 'nightly push' });
    expect(await verifyApiToken(db, `${token}x`, operators)).toBeNull();
    expect((await listApiTokens(db)).find((t) => t.id === entry.id)?.lastUsedAt).not.toBeNull();
    expect(await revokeApiToken(db, entry.id)).toBe(true);
    expect(await revokeApiToken(db, entry.id)).toBe(false);
    expect(await verifyApiToken(db, token, operators)).toBeNull();
  });

  it('counts users, Pro and recent sign-ins, and grants Pro from /admin', async () => {
    const users = async () => (await (await server.request('/api/admin/users?email=Reader@Example.com', { headers: { cookie: operator } })).json()) as { counts: UserCounts; user: UserOverview };
    expect(await users()).toMatchObject({ counts: { total: 2, pro: 0, signedInLately: 2 }, user: { email: 'reader@example.com', plan: 'free' } });
    const grant = await postJson(server, '/api/admin/users/pro', { email: 'reader@example.com', pro: true }, operator);
    expect(grant.status).toBe(200);
    expect(await users()).toMatchObject({ counts: { total: 2, pro: 1 }, user: { plan: 'pro', grantedPro: true } });
    const forged = await server.request('/api/admin/users/pro', { method: 'POST', headers: { origin: 'https://evil.example', cookie: operator, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'reader@example.com', pro: false }) });
    expect(forged.status).toBe(403);
    expect((await users()).user.plan).toBe('pro');
  });
});
