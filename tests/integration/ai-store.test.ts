/**
 * The AI tables (src/storage/ai-store.ts) on SQLite and PostgreSQL: a stored text keeps its first version, usage
 * counts and token sums per day, and conversations stay with their owner, are capped and deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiStore } from '../../src/storage/ai-store';
import { testAccounts } from '../fixtures/accounts';
import { DATABASES } from '../fixtures/account-server';

describe.each(DATABASES)('the AI tables on $name', ({ url }) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let store: AiStore;
  const users: string[] = [];

  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await url() });
    store = new AiStore(accounts.database.db);
    for (const email of ['a@example.com', 'b@example.com']) {
      const id = `user-${email}`;
      // What each driver binds: SQLite takes numbers and text, PostgreSQL booleans and dates.
      const sqlite = accounts.database.type === 'sqlite';
      const at = sqlite ? new Date().toISOString() : new Date();
      await accounts.database.db.insertInto('user').values({ id, name: '', email, emailVerified: sqlite ? 0 : false, image: null, createdAt: at, updatedAt: at }).execute();
      users.push(id);
    }
  }, 120_000);

  afterAll(async () => {
    await accounts?.dispose();
  });

  it('keeps the first text of a report, subject and model', async () => {
    const text = { reportDate: '2026-11-20', subject: 'XOM', model: 'm', text: 'first', outcome: 'checked' as const, facts: '# facts', tokens: 120 };
    await store.saveText(text, Date.parse('2026-11-20T10:00:00Z'));
    await store.saveText({ ...text, text: 'second' }, Date.parse('2026-11-20T11:00:00Z'));
    expect(await store.text('2026-11-20', 'XOM', 'm')).toEqual({ ...text, createdAt: '2026-11-20T10:00:00.000Z' });
    expect(await store.text('2026-11-20', 'XOM', 'other-model')).toBeNull();
  });

  it('counts uses and sums tokens per day', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const first = await store.recordUse('2026-11-20', 'user:a', 'chat', now);
    await store.recordUse('2026-11-20', 'user:a', 'chat', now);
    await store.recordUse('2026-11-20', 'user:a', 'analysis', now);
    await store.recordUse('2026-11-19', 'user:a', 'chat', now);
    await store.addTokens(first, 300);
    await store.addTokens(first, 45);
    expect(await store.usedToday('2026-11-20', 'user:a', 'chat')).toBe(2);
    expect(await store.usedToday('2026-11-20', 'user:b', 'chat')).toBe(0);
    expect(await store.tokensToday('2026-11-20')).toBe(345);
    expect(await store.tokensToday('2026-11-18')).toBe(0);
    await store.markIncomplete(first);
    expect(await store.usedToday('2026-11-20', 'user:a', 'chat')).toBe(1);
    expect(await store.tokensToday('2026-11-20')).toBe(345);
  });

  it('keeps conversations with their owner, at most the cap, until deleted', async () => {
    const [a, b] = users as [string, string];
    for (let i = 0; i < 4; i += 1) await store.saveChat(a, `c${i}`, `chat ${i}`, '[]', Date.parse('2026-11-20T10:00:00Z') + i * 1000, 3);
    expect((await store.chats(a)).map((c) => c.id)).toEqual(['c3', 'c2', 'c1']);
    await store.saveChat(b, 'c3', 'taken', '["b"]', Date.parse('2026-11-20T12:00:00Z'), 3);
    expect(await store.chatMessages(a, 'c3')).toBe('[]');
    expect(await store.chatMessages(b, 'c3')).toBeNull();
    expect(await store.deleteChats(a, 'c2')).toBe(1);
    expect(await store.deleteChats(a)).toBe(2);
    expect(await store.chats(a)).toEqual([]);
  });
});
