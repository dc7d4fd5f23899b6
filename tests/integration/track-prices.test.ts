/**
 * The daily job's price step backfills 60 report dates of grouped daily bars from the fake
 * Polygon server under a budget of 5 calls a minute; interrupted part way, the next run resumes with the first
 * missing day and finishes with no gaps. On SQLite and on PostgreSQL. Then the ledger's recording rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillPrices, recordTrack, trackDataOf } from '../../src/ingest/track';
import { PolygonProvider } from '../../src/server/providers/polygon';
import { TrackStore } from '../../src/storage/track';
import { DATABASES } from '../fixtures/account-server';
import { testAccounts } from '../fixtures/accounts';
import { fakeClose, GROUPED_TICKERS, startFakePolygon, type FakePolygon } from '../fixtures/fake-polygon';

const KEY = 'pk_test_track_5678';
const GROUPED = /^\/v2\/aggs\/grouped\/locale\/us\/market\/stocks\/(\d{4}-\d{2}-\d{2})$/;

/** The `count` weekdays up to and including `last`, oldest first (the report dates of a daily export). */
function weekdaysUpTo(last: string, count: number): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${last}T00:00:00Z`); dates.length < count; t -= 86_400_000) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) dates.unshift(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

const DATES = weekdaysUpTo('2026-11-20', 60);
const TODAY = '2026-11-24';

let fake: FakePolygon;
beforeAll(async () => {
  fake = await startFakePolygon({ key: KEY });
});
afterAll(() => fake.close());

describe.each(DATABASES)('the price backfill on $name', ({ url }) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await url() });
  }, 120_000);
  afterAll(() => accounts.dispose());

  it('backfills 60 days under 5 calls a minute, resumes after an interruption and finishes with no gaps', async () => {
    const store = new TrackStore(accounts.database.db);
    let clock = Date.parse(`${TODAY}T12:00:00Z`);
    const start = clock;
    const sleeps: number[] = [];
    const logs: string[] = [];
    const source = () =>
      new PolygonProvider({
        apiKey: KEY,
        baseUrl: fake.origin,
        ratePerMinute: 5,
        timeoutMs: 2000,
        now: () => clock,
        sleep: async (ms) => void (sleeps.push(ms), (clock += ms)),
        log: (line) => logs.push(line),
      });
    const asked = () => askedDates(fake);
    fake.calls.length = 0;

    // The upstream refuses the 23rd date: the run stops there with 22 days stored.
    fake.forbid = new RegExp(`/stocks/${DATES[22]}$`);
    const first = await backfillPrices({ store, source: source() }, DATES, TODAY, (line) => logs.push(line));
    fake.forbid = null;
    expect(first.fetched).toEqual(DATES.slice(0, 22));
    expect(first.stoppedBy).toMatch(new RegExp(`Polygon refused /v2/aggs/grouped/locale/us/market/stocks/${DATES[22]} \\(403`));
    expect(first.missing).toEqual(DATES.slice(22));
    expect(asked()).toEqual(DATES.slice(0, 23));
    expect(logs).toContainEqual(expect.stringMatching(/^Prices stopped at \d{4}-\d{2}-\d{2} \(the next run resumes there\)/));

    // The next run asks only for what is missing, oldest first, and never more than 5 calls in a minute of its clock.
    fake.calls.length = 0;
    sleeps.length = 0;
    const second = await backfillPrices({ store, source: source() }, DATES, TODAY, (line) => logs.push(line));
    expect(second).toMatchObject({ fetched: DATES.slice(22), missing: [], stoppedBy: null });
    expect(asked()).toEqual(DATES.slice(22));
    // 38 calls at 5 a minute: every sixth waits for the minute to pass.
    expect(sleeps.length).toBe(Math.ceil(38 / 5) - 1);
    expect(clock - start).toBeGreaterThanOrEqual(60_000 * (Math.ceil(38 / 5) - 1));
    expect(logs).toContainEqual(expect.stringMatching(/^The Polygon budget of 5 calls a minute is spent: waiting \d+ s before the next \/v2\/aggs\/grouped\//));

    // No gaps: every date stored, every ticker's close on every date, as the fake sent it.
    expect((await store.priceDays()).map((d) => [d.date, d.source, d.tickers])).toEqual(DATES.map((d) => [d, 'polygon', GROUPED_TICKERS.length]));
    const history = { dates: DATES, latest: [], scores: {} };
    const track = await trackDataOf({ store, source: source() }, [{ ticker: 'AAPL', date: DATES[0]!, direction: 'bullish', cScore: 70, exitDate: null }], history);
    expect(track.days).toEqual(DATES);
    expect(track.closes.AAPL).toEqual(DATES.map((d) => fakeClose('AAPL', d)));

    // A third run has nothing to ask.
    fake.calls.length = 0;
    const third = await backfillPrices({ store, source: source() }, DATES, TODAY, () => undefined);
    expect(third).toMatchObject({ fetched: [], missing: [], stoppedBy: null });
    expect(asked()).toEqual([]);
  });

  it('asks again for a day the API had no bars for yet, and never for a day after today', async () => {
    const store = new TrackStore(accounts.database.db);
    const provider = new PolygonProvider({ apiKey: KEY, baseUrl: fake.origin, ratePerMinute: 1000, timeoutMs: 2000, log: () => undefined });
    fake.unclosedDays.add('2026-11-23');
    fake.calls.length = 0;
    const run = await backfillPrices({ store, source: provider }, ['2026-11-23', '2026-11-25'], TODAY, () => undefined);
    expect(run).toMatchObject({ fetched: [], empty: ['2026-11-23'], missing: ['2026-11-23'] });
    expect(askedDates(fake)).toEqual(['2026-11-23']);
    fake.unclosedDays.clear();
    const again = await backfillPrices({ store, source: provider }, ['2026-11-23'], TODAY, () => undefined);
    expect(again.fetched).toEqual(['2026-11-23']);
  });

  it('records each entry once: a later export that changes an old report leaves its rows alone, a re-publish of that date rewrites them', async () => {
    const store = new TrackStore(accounts.database.db);
    const source = new PolygonProvider({ apiKey: KEY, baseUrl: fake.origin, ratePerMinute: 1000, timeoutMs: 2000, log: () => undefined });
    const step = { store, source };
    const dates = DATES.slice(0, 4);
    const latest = (ticker: string) => [{ ticker } as never];
    // AAPL enters bullish on day 0 and exits on day 2; MSFT enters bearish on day 1.
    const first = await recordTrack(step, { dates: dates.slice(0, 3), latest: latest('AAPL'), scores: { AAPL: [70, 72, 50], MSFT: [10, -80, -81] } }, new Set());
    expect(first.track.entries).toEqual([
      { ticker: 'AAPL', date: dates[0], direction: 'bullish', cScore: 70, exitDate: dates[2] },
      { ticker: 'MSFT', date: dates[1], direction: 'bearish', cScore: -80, exitDate: null },
    ]);
    expect(first.notes).toEqual(['ledger: 2 new entries, 0 exits recorded']);

    // A later export says AAPL was 60 on day 0 (not qualified) and MSFT -90 on day 1; MSFT exits on day 3.
    const changed = { dates, latest: latest('AAPL'), scores: { AAPL: [60, 72, 50, 50], MSFT: [10, -90, -81, 0] } };
    const second = await recordTrack(step, changed, new Set());
    expect(second.track.entries).toEqual([
      { ticker: 'AAPL', date: dates[0], direction: 'bullish', cScore: 70, exitDate: dates[2] },
      { ticker: 'AAPL', date: dates[1], direction: 'bullish', cScore: 72, exitDate: dates[2] },
      { ticker: 'MSFT', date: dates[1], direction: 'bearish', cScore: -80, exitDate: dates[3] },
    ]);
    expect(second.notes).toEqual(['ledger: 1 new entries, 1 exits recorded']);

    // The operator re-publishes day 1: its rows are what the history says now, and the notes say so.
    const third = await recordTrack(step, changed, new Set([dates[1]!]));
    expect(third.track.entries.filter((e) => e.date === dates[1])).toEqual([
      { ticker: 'AAPL', date: dates[1], direction: 'bullish', cScore: 72, exitDate: dates[2] },
      { ticker: 'MSFT', date: dates[1], direction: 'bearish', cScore: -90, exitDate: dates[3] },
    ]);
    expect(third.notes).toContainEqual(`ledger: the re-publish of ${dates[1]} rewrote its rows (1 changed in all)`);
    expect(await store.ledger()).toEqual(third.track.entries);

    // The file of day 0 is withdrawn: the archive no longer holds that report, so its rows go, and the notes say so.
    const withdrawn = { dates: dates.slice(1), latest: latest('AAPL'), scores: { AAPL: [72, 50, 50], MSFT: [-90, -81, 0] } };
    const fourth = await recordTrack(step, withdrawn, new Set());
    expect(fourth.notes).toContainEqual(`ledger: the rows of ${dates[0]} removed: the archive no longer holds these reports`);
    expect((await store.ledger()).map((e) => [e.ticker, e.date])).toEqual([['AAPL', dates[1]], ['MSFT', dates[1]]]);
  });
});

/** The dates the fake was asked grouped daily bars for, in order. */
function askedDates(f: FakePolygon): string[] {
  return f.calls.flatMap((path) => GROUPED.exec(path)?.[1] ?? []);
}
