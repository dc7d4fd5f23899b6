/**
 * The daily job's track-record steps. Prices: the grouped daily bars of every report date the database
 * lacks, oldest first, one call per date within the provider's per-minute budget; each day is stored as it arrives,
 * so a backfill cut short resumes with the first missing day on the next run. Ledger: every time a ticker qualified,
 * recorded once and kept (docs/data-flow.md#track-record), then measured against the stored closes for the build.
 */
import type { SignalHistory } from '../lib/domain/report/schemas';
import type { ClosingPricesSource, TrackData } from '../lib/domain/track-record/track-data';
import { historyLedger, mergeLedger, withFoundScores, withLatestScores, type LedgerEntry } from '../lib/domain/track-record/track-record';
import type { QualifiedScores } from './history';
import type { TrackStore } from '../storage/track';
import { cachedCloses } from './closes-cache';
import { DEFAULT_BENCHMARK_TICKER, DEFAULT_COST_BPS, DEMO_INDEX_NAME, demoIndexCloses } from '../lib/domain/track-record/benchmark';

/** The track step's parts: where closes are stored and where they come from (the provider of the job). */
export interface TrackStep {
  store: TrackStore;
  source: ClosingPricesSource;
  /** BENCHMARK_TICKER (default SPY): its closes are the benchmark's, except with the demo provider (the demo index). */
  benchmarkTicker?: string;
  /** TRACK_COST_BPS: the model portfolio's cost per trade (default 10). */
  costBps?: number;
}

/** What the backfill did. */
export interface PricesSummary {
  /** Days stored by this run. */
  fetched: string[];
  /** Report dates still without closes after this run. */
  missing: string[];
  /** Dates the source answered without bars (not traded yet): asked again on the next run. */
  empty: string[];
  /** Why the backfill stopped early (the next run resumes), or null. */
  stoppedBy: string | null;
}

/** Report dates up to `today` that the store lacks from this source, oldest first. */
export async function missingPriceDays(store: TrackStore, source: ClosingPricesSource['name'], reportDates: Iterable<string>, today: string): Promise<string[]> {
  const stored = new Set((await store.priceDays(source)).map((day) => day.date));
  return [...new Set(reportDates)].filter((date) => date <= today && !stored.has(date)).sort();
}

/** Fetches and stores the closes of every report date the store lacks, oldest first; never throws for an upstream failure. */
export async function backfillPrices(step: TrackStep, reportDates: Iterable<string>, today: string, log: (line: string) => void): Promise<PricesSummary> {
  const due = await missingPriceDays(step.store, step.source.name, reportDates, today);
  const summary: PricesSummary = { fetched: [], missing: [], empty: [], stoppedBy: null };
  for (const [i, date] of due.entries()) {
    try {
      const closes = await step.source.groupedDaily(date);
      if (closes.length === 0) summary.empty.push(date);
      else {
        await step.store.saveDay(date, step.source.name, closes);
        summary.fetched.push(date);
      }
    } catch (error) {
      summary.stoppedBy = (error as Error).message;
      summary.missing = due.slice(i);
      log(`Prices stopped at ${date} (the next run resumes there): ${summary.stoppedBy}`);
      break;
    }
  }
  summary.missing = [...summary.empty, ...summary.missing];
  if (due.length > 0) log(`Prices: closes for ${summary.fetched.length} of ${due.length} report dates (${step.source.name}).`);
  return summary;
}

/** The backfill as the run log's notes. */
export function priceNotes(summary: PricesSummary, source: ClosingPricesSource['name']): string[] {
  const notes: string[] = [];
  if (summary.fetched.length > 0) notes.push(`closes of ${summary.fetched.length} report date(s) stored from ${source} (${summary.fetched[0]} to ${summary.fetched.at(-1)})`);
  if (summary.empty.length > 0) notes.push(`no bars yet for ${summary.empty.join(', ')}: asked again on the next run`);
  if (summary.stoppedBy !== null) notes.push(`prices stopped early, the next run resumes at ${summary.missing.find((d) => !summary.empty.includes(d))}: ${summary.stoppedBy}`);
  return notes;
}

/**
 * Records the ledger of `history` (new entries, exits filled; the `republished` dates' rows replaced) and returns the
 * track data the build reads with the run log's notes.
 */
export async function recordTrack(
  step: TrackStep,
  history: SignalHistory,
  republished: ReadonlySet<string>,
  closesCache: string | null = null,
  qualifiedScores: QualifiedScores | null = null,
): Promise<{ track: TrackData; notes: string[] }> {
  let computed = withLatestScores(historyLedger(history), history.dates.at(-1), history.latest);
  const previous = await step.store.ledger();
  // The other entries' supporting scores are in their days' archived exports: looked up for the entries that neither
  // the latest report nor the recorded ledger gives them.
  if (qualifiedScores !== null) {
    const recorded = new Set(previous.filter((e) => e.scores != null && !republished.has(e.date)).map((e) => `${e.ticker}|${e.date}`));
    const lacking = computed.filter((e) => e.scores == null && !recorded.has(`${e.ticker}|${e.date}`)).map((e) => e.date);
    if (lacking.length > 0) computed = withFoundScores(computed, await qualifiedScores(lacking));
  }
  // A recorded date the archive no longer holds (its file withdrawn) has no report behind it: its rows go too.
  const reported = new Set(history.dates);
  const gone = [...new Set(previous.map((e) => e.date))].filter((date) => !reported.has(date)).sort();
  const rewritten = new Set([...republished, ...gone]);
  const merged = mergeLedger(previous, computed, rewritten);
  await step.store.saveLedger(merged.ledger, previous, rewritten);
  const notes: string[] = [];
  if (merged.added > 0 || merged.exits > 0) notes.push(`ledger: ${merged.added} new entries, ${merged.exits} exits recorded`);
  if (gone.length > 0) notes.push(`ledger: the rows of ${gone.join(', ')} removed: the archive no longer holds these reports`);
  for (const date of [...republished].sort()) {
    if (previous.some((e) => e.date === date) || merged.ledger.some((e) => e.date === date)) {
      notes.push(`ledger: the re-publish of ${date} rewrote its rows (${merged.replaced} changed in all)`);
    }
  }
  return { track: await trackDataOf(step, merged.ledger, history, closesCache), notes };
}

/**
 * The closes the build needs (the ledger's and the latest report's tickers, every stored day) with the ledger; through
 * the cache file `closesCache` when given (see closes-cache.ts).
 */
export async function trackDataOf(step: TrackStep, entries: LedgerEntry[], history: SignalHistory, closesCache: string | null = null): Promise<TrackData> {
  const stored = await step.store.priceDays(step.source.name);
  const days = stored.map((day) => day.date);
  const benchmarkTicker = step.benchmarkTicker ?? DEFAULT_BENCHMARK_TICKER;
  const demo = step.source.name === 'demo';
  const tickers = new Set([...entries.map((e) => e.ticker), ...history.latest.map((r) => r.ticker)]);
  if (!demo) tickers.add(benchmarkTicker);
  const { closes } = await cachedCloses(step.store, stored, tickers, closesCache);
  const benchmarkCloses = demo ? demoIndexCloses(days, closes) : closes[benchmarkTicker];
  // The benchmark is kept apart from the tickers' closes unless a signal of its own needs them.
  if (!demo && !entries.some((e) => e.ticker === benchmarkTicker) && !history.latest.some((r) => r.ticker === benchmarkTicker)) delete closes[benchmarkTicker];
  return {
    prices: days.length === 0 ? 'none' : step.source.name,
    days,
    closes,
    entries,
    ...(benchmarkCloses && days.length > 0 ? { benchmark: { ticker: demo ? DEMO_INDEX_NAME : benchmarkTicker, demo, closes: benchmarkCloses } } : {}),
    costBps: step.costBps ?? DEFAULT_COST_BPS,
  };
}

/** A digest of the stored days from this source: part of the inputs hash, so new closes rebuild the site. */
export async function priceDigest(step: TrackStep): Promise<string> {
  const days = await step.store.priceDays(step.source.name);
  return `${step.source.name}:${days.map((day) => `${day.date}=${day.tickers}`).join(',')}`;
}
