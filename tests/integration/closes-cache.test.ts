/**
 * The daily job keeps the closes beside the history store and reads from the database only what changed
 * since: the days stored after the cache, the tickers it lacks. A day stored again or a truncated cache reads all again.
 * Whatever the cache held, the closes are the database's.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedCloses } from '../../src/ingest/closes-cache';
import { TrackStore } from '../../src/storage/track';
import { DATABASES } from '../fixtures/account-server';
import { testAccounts } from '../fixtures/accounts';

const bars = (day: number, tickers: string[]) => tickers.map((ticker, i) => ({ ticker, close: 100 + day + i / 100 }));

describe.each(DATABASES)('the closes cache on $name', ({ url }) => {
  let accounts: Awaited<ReturnType<typeof testAccounts>>;
  let dir: string;
  let clock = Date.parse('2026-11-24T12:00:00Z');
  beforeAll(async () => {
    accounts = await testAccounts({ databaseUrl: await url() });
    dir = await mkdtemp(join(tmpdir(), 'closes-cache-'));
  }, 120_000);
  afterAll(async () => {
    await accounts.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads only the days stored since and the tickers it lacks, and gives the closes the database holds', async () => {
    const store = new TrackStore(accounts.database.db, () => clock);
    const file = join(dir, 'closes.bin');
    for (const [i, date] of ['2026-11-16', '2026-11-17', '2026-11-18'].entries()) await store.saveDay(date, 'polygon', bars(i, ['AAPL', 'KO', 'MSFT']));
    const wanted = new Set(['AAPL', 'MSFT', 'NONE']);
    const direct = async (tickers: Set<string>) => store.closesOn((await store.priceDays('polygon')).map((d) => d.date), tickers);
    const read = async (tickers: Set<string>) => cachedCloses(store, await store.priceDays('polygon'), tickers, file);

    const first = await read(wanted);
    expect(first.cached).toEqual({ days: 0, tickers: 0 });
    expect(first.closes).toEqual({ AAPL: [100, 101, 102], MSFT: [100.02, 101.02, 102.02] });

    // A new trading day: the three held come from the cache.
    await store.saveDay('2026-11-19', 'polygon', bars(3, ['AAPL', 'KO']));
    const second = await read(wanted);
    expect(second.cached).toEqual({ days: 3, tickers: 4 });
    expect(second.closes).toEqual(await direct(wanted));
    expect(second.closes.MSFT).toEqual([100.02, 101.02, 102.02, null]);

    // A ticker the cache lacks is read for the days it held.
    const withKo = await read(new Set([...wanted, 'KO']));
    expect(withKo.cached.days).toBe(4);
    expect(withKo.closes.KO).toEqual([100.01, 101.01, 102.01, 103.01]);

    // A day stored again (other closes) is not the day the cache holds: everything is read again.
    clock += 60_000;
    await store.saveDay('2026-11-17', 'polygon', bars(10, ['AAPL', 'KO', 'MSFT']));
    const restored = await read(wanted);
    expect(restored.cached.days).toBe(0);
    expect(restored.closes.AAPL).toEqual([100, 110, 102, 103]);
    expect(restored.closes).toEqual(await direct(wanted));

    // A cache that does not read back whole is read again too.
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 8));
    const truncated = await read(wanted);
    expect(truncated.cached.days).toBe(0);
    expect(truncated.closes).toEqual(await direct(wanted));
    // Nothing stored since: the cache's matrix is read as it is.
    const same = await read(wanted);
    expect(same.cached).toEqual({ days: 4, tickers: 4 });
    expect(same.closes).toEqual(await direct(wanted));
  });
});
