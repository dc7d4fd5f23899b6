/**
 * An entry recorded without its supporting scores (backfilled from older reports, or recorded by an older build) takes
 * them once the run finds them in its day's archived export, and keeps them. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTrack } from '../../src/ingest/track';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { TrackStore } from '../../src/storage/track';
import { DATABASES } from '../fixtures/account-server';
import { testAccounts } from '../fixtures/accounts';
import { signalRecord } from '../fixtures/records';

const NO_CLOSES = { name: 'demo' as const, groupedDaily: async () => [] };

function history(dates: string[], scores: Record<string, number[]>): SignalHistory {
  const last = dates.at(-1)!;
  const latest = Object.entries(scores).map(([ticker, list]) => signalRecord(ticker, { reportDate: last, cScore: list.at(-1)! }));
  return { dates, latest, scores };
}

describe.each(DATABASES)('supporting scores from the archived exports on $name', ({ url }) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await url() });
  }, 120_000);
  afterAll(() => accounts.dispose());

  it('a backfilled entry gets its day\'s supporting scores from the lookup; an entry recorded without them gets them on a later run', async () => {
    const step = { store: new TrackStore(accounts.database.db), source: NO_CLOSES };
    const asked: string[][] = [];
    const lookup = async (dates: readonly string[]) => {
      asked.push([...dates]);
      return new Map([['2026-11-17', { MSFT: [5, 6, 7, 8] as [number, number, number, number] }]]);
    };
    // The first run has no lookup (an older build): AAPL (Nov 18) and MSFT (Nov 17) are recorded without scores.
    await recordTrack(step, history(['2026-11-17', '2026-11-18', '2026-11-19'], { MSFT: [66, 67, 68], AAPL: [10, 70, 72] }), new Set());
    expect((await step.store.ledger()).map((e) => e.scores ?? null)).toEqual([null, null]);
    // The next run finds MSFT's day in its archived export; AAPL's day has no qualified row there, so it stays without.
    const { track } = await recordTrack(step, history(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'], { MSFT: [66, 67, 68, 69], AAPL: [10, 70, 72, 73] }), new Set(), null, lookup);
    expect(asked).toEqual([['2026-11-17', '2026-11-18']]);
    const ledger = await step.store.ledger();
    expect(ledger.find((e) => e.ticker === 'MSFT')!.scores).toEqual({ delta: 5, market: 6, accuracy: 7, relevance: 8 });
    expect(ledger.find((e) => e.ticker === 'AAPL')!.scores ?? null).toBeNull();
    expect(track.entries.find((e) => e.ticker === 'MSFT')!.scores).toEqual({ delta: 5, market: 6, accuracy: 7, relevance: 8 });
    // Once recorded, MSFT's scores are not looked up again.
    await recordTrack(step, history(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'], { MSFT: [66, 67, 68, 69], AAPL: [10, 70, 72, 73] }), new Set(), null, lookup);
    expect(asked.at(-1)).toEqual(['2026-11-18']);
  });
});
