/**
 * The closes the track record is measured with, kept between runs beside the history store. Reading five
 * years of 6,000 tickers' closes from the database is 7.5 million rows, about 17 seconds, every morning. The cache
 * holds them as one matrix with each stored day's stamp (its date, source, ticker count and when it was stored): a run
 * reads from the database only the days stored since, and the tickers the cache lacks. A day stored again (its closes
 * replaced) or a cache that does not read back whole makes the run read everything again. The database stays the
 * source of truth; the cache is a copy of it.
 */
import { isStringArray, readMatrixFile, rowLists, writeMatrixFile } from '../storage/matrix-file';
import type { StoredPriceDay, TrackStore } from '../storage/track';

type Closes = Record<string, (number | null)[]>;

interface Header {
  /** One per stored day, ascending: what the day's row in the database said when it was read. */
  stamps: string[];
  tickers: string[];
}

const stampOf = (day: StoredPriceDay) => `${day.date}|${day.source}|${day.tickers}|${day.fetchedAt}`;

const isHeader = (value: unknown): value is Header =>
  typeof value === 'object' && value !== null && isStringArray((value as Partial<Header>).stamps) && isStringArray((value as Partial<Header>).tickers);

/** How the cache served a read: days and tickers from it, and those read from the database. */
export interface ClosesRead {
  closes: Closes;
  cached: { days: number; tickers: number };
}

/**
 * The closes of `tickers` on the stored `days` (ascending), as `TrackStore.closesOn` gives them, through the cache file
 * at `file` (read from the database alone when null).
 */
export async function cachedCloses(store: TrackStore, days: readonly StoredPriceDay[], tickers: ReadonlySet<string>, file: string | null): Promise<ClosesRead> {
  const dates = days.map((day) => day.date);
  if (file === null) return { closes: await store.closesOn(dates, tickers), cached: { days: 0, tickers: 0 } };
  const stamps = days.map(stampOf);
  const cache = await readMatrixFile<Header>(file, (h) => (isHeader(h) ? h.stamps.length * h.tickers.length : null));
  const usable = cache !== null && cache.header.stamps.length <= stamps.length && cache.header.stamps.every((stamp, i) => stamp === stamps[i]);
  const width = days.length;
  const cachedDays = usable ? cache.header.stamps.length : 0;
  const cachedTickers = usable ? cache.header.tickers : [];
  const known = new Set(cachedTickers);
  const missing = new Set([...tickers].filter((ticker) => !known.has(ticker)));
  // The days stored since (every ticker: a ticker asked for later finds them), and the whole of each ticker not held.
  const newDays = cachedDays < width ? await store.closesOn(dates.slice(cachedDays), null) : {};
  const newTickers = missing.size > 0 && cachedDays > 0 ? await store.closesOn(dates.slice(0, cachedDays), missing) : {};
  const current = usable && cachedDays === width && missing.size === 0;
  // A ticker asked for is kept even without a close, so the next run does not look for it again.
  const rows = current ? cachedTickers : [...new Set([...cachedTickers, ...Object.keys(newDays), ...missing])].sort();
  const rowOf = new Map(rows.map((ticker, i) => [ticker, i]));
  // Nothing new since the cache was written (a rebuild of the same day): its matrix is used as it is.
  const values = current ? cache.values : new Float64Array(rows.length * width).fill(NaN);
  if (!current) {
    cachedTickers.forEach((ticker, old) => values.set(cache!.values.subarray(old * cachedDays, (old + 1) * cachedDays), rowOf.get(ticker)! * width));
    for (const [ticker, series] of Object.entries(newDays)) series.forEach((close, i) => close !== null && (values[rowOf.get(ticker)! * width + cachedDays + i] = close));
    for (const [ticker, series] of Object.entries(newTickers)) series.forEach((close, i) => close !== null && (values[rowOf.get(ticker)! * width + i] = close));
    await writeMatrixFile(file, { stamps, tickers: rows } satisfies Header, values);
  }

  // Each ticker's list is made when the track record reads it (once), not held.
  const wanted = [...tickers].sort().flatMap((ticker): [string, number][] => (rowOf.has(ticker) ? [[ticker, rowOf.get(ticker)!]] : []));
  const closes = rowLists(wanted, values, width, true);
  return { closes, cached: { days: cachedDays, tickers: cachedTickers.length } };
}
