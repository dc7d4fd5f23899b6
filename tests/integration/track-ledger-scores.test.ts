/**
 * A ledger entry keeps the supporting scores of the report it qualified on when the job records it on that report's
 * run (what a signal's permalink shows); an entry backfilled from older reports has none. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTrack } from '../../src/ingest/track';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { TrackStore } from '../../src/storage/track';
import { DATABASES } from '../fixtures/account-server';
import { testAccounts } from '../fixtures/accounts';
import { signalRecord } from '../fixtures/records';

const NO_CLOSES = { name: 'demo' as const, groupedDaily: async () => [] };

/** A history of `dates` whose latest report carries AAPL's and XOM's full records. */
function history(dates: string[], scores: Record<string, number[]>): SignalHistory {
  const last = dates.at(-1)!;
  const latest = Object.entries(scores).map(([ticker, list], i) =>
    signalRecord(ticker, { reportDate: last, cScore: list.at(-1)!, deltaScore: 40 + i, marketScore: -12.5, accuracyScore: 71.25, relevanceScore: 88 }),
  );
  return { dates, latest, scores };
}

describe.each(DATABASES)('the ledger\'s supporting scores on $name', ({ url }) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await url() });
  }, 120_000);
  afterAll(() => accounts.dispose());

  it('records the latest report\'s scores with an entry opened on it, none for a backfilled one, and keeps them on the next run', async () => {
    const step = { store: new TrackStore(accounts.database.db), source: NO_CLOSES };
    // AAPL qualified on Nov 18 (backfilled on the first run); XOM opens on Nov 19, the latest report of that run.
    await recordTrack(step, history(['2026-11-18', '2026-11-19'], { AAPL: [70, 72], XOM: [-10, -70] }), new Set());
    const first = await step.store.ledger();
    expect(first.map((e) => [e.ticker, e.date, e.scores ?? null])).toEqual([
      ['AAPL', '2026-11-18', null],
      ['XOM', '2026-11-19', { delta: 41, market: -12.5, accuracy: 71.25, relevance: 88 }],
    ]);
    // The next day's run: XOM's recorded scores stay (the history no longer holds Nov 19's records); MSFT opens.
    const { track } = await recordTrack(step, history(['2026-11-18', '2026-11-19', '2026-11-20'], { AAPL: [70, 72, 74], XOM: [-10, -70, -71], MSFT: [0, 10, 66] }), new Set());
    const second = await step.store.ledger();
    expect(second.find((e) => e.ticker === 'XOM')!.scores).toEqual({ delta: 41, market: -12.5, accuracy: 71.25, relevance: 88 });
    expect(second.find((e) => e.ticker === 'MSFT')!.scores).toEqual({ delta: 42, market: -12.5, accuracy: 71.25, relevance: 88 });
    // The build gets them with the entries.
    expect(track.entries.find((e) => e.ticker === 'XOM')!.scores).toMatchObject({ delta: 41 });
  });
});
