/**
 * The track record: every signal that qualified, the close on its report date, and what the price did
 * 5, 30 and 90 trading days later, losers included. Pure functions of the report history and the daily closes.
 */
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD, signalDirection } from '../signals/signal';
import { meanInterval, wilsonInterval } from './stats';

/** The horizons, in trading days after the report date. */
export const TRACK_HORIZONS = [5, 30, 90] as const;

/** A horizon of the track record. */
export type Horizon = (typeof TRACK_HORIZONS)[number];

/** The direction of a qualified signal. */
export type SignalSide = 'bullish' | 'bearish';

/** The market's trading days and one ticker's closes on them. */
export interface PriceSeries {
  /** Every trading day the bars cover, ascending (a day with grouped bars for the market). */
  days: readonly string[];
  /** This ticker's close by trading day; a day it did not trade is absent. */
  closes: ReadonlyMap<string, number>;
}

/**
 * How a horizon turned out: `closed` (the horizon's trading day has passed and the ticker traded on or before it),
 * `open` (the horizon lies in the future: the return so far), `stopped` (the ticker stopped trading before the
 * horizon: the return to its last close, marked, never dropped), `no-price` (no close on the report date).
 */
export type OutcomeStatus = 'closed' | 'open' | 'stopped' | 'no-price';

/** One horizon of one signal. */
export interface HorizonOutcome {
  horizon: Horizon;
  status: OutcomeStatus;
  /** The day of the close the return is measured to (null with no price). */
  date: string | null;
  close: number | null;
  /** The price change from the report date's close, as a fraction (0.05 is +5%). */
  priceReturn: number | null;
  /** The change in the signal's direction: the price change for bullish, its negative for bearish. */
  signalReturn: number | null;
  /** Whether the price moved the signal's way (bullish: rose, bearish: fell); null while open or without a price. */
  hit: boolean | null;
  /** The benchmark's price change over the same days (report date's close to `date`'s), or null without its closes. */
  benchmarkReturn: number | null;
  /** The signal's return less the benchmark's, in the signal's direction (bearish: the benchmark's change less the stock's). */
  excessReturn: number | null;
}

/** One time a ticker qualified. */
export interface LedgerRow {
  ticker: string;
  /** The report date it qualified on. */
  date: string;
  direction: SignalSide;
  cScore: number;
  /** The close on the report date (the last close on or before it), or null without one. */
  entryClose: number | null;
  outcomes: HorizonOutcome[];
  /** The first report date it no longer qualified in this direction (exited, reversed or left the report), or null. */
  exitDate: string | null;
  /** The change from entry to the close of the exit date, in the signal's direction. */
  exitReturn: number | null;
  scores?: SupportingScores | null;
}

/** The last close on or before `day` (a report may fall on a day without trading), with its day. */
function closeOnOrBefore(prices: PriceSeries, day: string): { date: string; close: number } | null {
  for (let i = upperIndex(prices.days, day); i >= 0; i--) {
    const date = prices.days[i]!;
    const close = prices.closes.get(date);
    if (close !== undefined) return { date, close };
  }
  return null;
}

/** The index of the last trading day on or before `day` in ascending `days`, or -1. */
export function upperIndex(days: readonly string[], day: string): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function lastCloseOf(prices: PriceSeries): { date: string; close: number } | null {
  return prices.days.length === 0 ? null : closeOnOrBefore(prices, prices.days.at(-1)!);
}

/** The outcome of a signal at `horizon` trading days after `date`, from `entry` (the close on the report date). */
export function horizonOutcome(prices: PriceSeries, date: string, direction: SignalSide, entry: number | null, horizon: Horizon, benchmark: PriceSeries | null = null): HorizonOutcome {
  const none: HorizonOutcome = { horizon, status: 'no-price', date: null, close: null, priceReturn: null, signalReturn: null, hit: null, benchmarkReturn: null, excessReturn: null };
  if (entry === null || entry <= 0) return none;
  const start = upperIndex(prices.days, date);
  const target = start + horizon;
  const measured = (status: OutcomeStatus, at: { date: string; close: number }): HorizonOutcome => {
    const priceReturn = at.close / entry - 1;
    const signalReturn = direction === 'bullish' ? priceReturn : -priceReturn;
    const hit = status === 'open' ? null : direction === 'bullish' ? at.close > entry : at.close < entry;
    const benchmarkReturn = benchmark === null ? null : periodReturn(benchmark, date, at.date);
    return { horizon, status, date: at.date, close: at.close, priceReturn, signalReturn, hit, benchmarkReturn, excessReturn: excessReturn(direction, priceReturn, benchmarkReturn) };
  };
  const last = lastCloseOf(prices);
  if (last === null) return none;
  if (target >= prices.days.length) {
    // The horizon's day has not come: the return so far, unless the ticker stopped trading before the last day.
    return measured(last.date < prices.days.at(-1)! ? 'stopped' : 'open', last);
  }
  const targetDay = prices.days[target]!;
  const at = closeOnOrBefore(prices, targetDay)!;
  // No close on or after the horizon's day while the market traded on: the ticker stopped trading first.
  if (at.date < targetDay && last.date <= targetDay) return measured('stopped', at);
  return measured('closed', at);
}

/** The price change of a series from its close on or before `from` to its close on or before `to`, or null. */
export function periodReturn(series: PriceSeries, from: string, to: string): number | null {
  // Most days are trading days with a close: a lookup, before the search for the last close before one.
  const start = series.closes.get(from) ?? closeOnOrBefore(series, from)?.close ?? null;
  const end = series.closes.get(to) ?? closeOnOrBefore(series, to)?.close ?? null;
  return start === null || end === null || start <= 0 ? null : end / start - 1;
}

/** A signal's return over the benchmark's, in the signal's direction: bullish stock − benchmark, bearish benchmark − stock. */
export function excessReturn(direction: SignalSide, priceReturn: number | null, benchmarkReturn: number | null): number | null {
  if (priceReturn === null || benchmarkReturn === null) return null;
  return direction === 'bullish' ? priceReturn - benchmarkReturn : benchmarkReturn - priceReturn;
}

/** Each time a ticker qualified in a report series: where it entered and where it stopped qualifying that way. */
export function signalEntries(scores: readonly (number | null)[]): { index: number; direction: SignalSide; exitIndex: number | null }[] {
  const entries: { index: number; direction: SignalSide; exitIndex: number | null }[] = [];
  let open: { index: number; direction: SignalSide; exitIndex: number | null } | null = null;
  scores.forEach((score, i) => {
    const side = signalDirection(score);
    const direction: SignalSide | null = side === 'neutral' ? null : side;
    if (open && open.direction !== direction) {
      open.exitIndex = i;
      open = null;
    }
    // A signal open on the archive's first report counts from there: the archive holds nothing earlier.
    if (direction !== null && open === null) {
      open = { index: i, direction, exitIndex: null };
      entries.push(open);
    }
  });
  return entries;
}

/** The supporting scores of a stock on one report. */
export interface SupportingScores {
  delta: number;
  market: number;
  accuracy: number;
  relevance: number;
}

/** What the report history says about one entry: the part of a ledger row that is recorded once and kept. */
export interface LedgerEntry {
  ticker: string;
  date: string;
  direction: SignalSide;
  cScore: number;
  exitDate: string | null;
  /** The supporting scores of the report it qualified on, recorded when that report was the latest; else absent or null. */
  scores?: SupportingScores | null;
}

/**
 * The entries that open on the latest report with that report's supporting scores (the history keeps only the
 * latest report's full records, so an entry recorded on its own day is the one that can carry them).
 */
export function withLatestScores(entries: readonly LedgerEntry[], latestDate: string | undefined, latest: readonly { ticker: string; deltaScore: number; marketScore: number; accuracyScore: number; relevanceScore: number }[]): LedgerEntry[] {
  if (latestDate === undefined) return [...entries];
  const records = new Map(latest.map((r) => [r.ticker, r]));
  return entries.map((entry) => {
    const record = entry.date === latestDate ? records.get(entry.ticker) : undefined;
    return record ? { ...entry, scores: { delta: record.deltaScore, market: record.marketScore, accuracy: record.accuracyScore, relevance: record.relevanceScore } } : entry;
  });
}

/** The supporting scores as the export's columns order them: Delta, Market, Accuracy, Relevance. */
export type SupportingScoreValues = [number, number, number, number];

/**
 * The entries lacking supporting scores, given them from `found` (report date to ticker to the values of that report's
 * export); the others as they are.
 */
export function withFoundScores(entries: readonly LedgerEntry[], found: ReadonlyMap<string, Readonly<Record<string, SupportingScoreValues>>>): LedgerEntry[] {
  return entries.map((entry) => {
    const values = entry.scores == null ? found.get(entry.date)?.[entry.ticker] : undefined;
    return values ? { ...entry, scores: { delta: values[0], market: values[1], accuracy: values[2], relevance: values[3] } } : entry;
  });
}

/** A ticker's entries in a report series (one per time it qualified), with their exit dates. */
export function ledgerEntries(ticker: string, reportDates: readonly string[], scores: readonly (number | null)[]): LedgerEntry[] {
  return signalEntries(scores).map(({ index, direction, exitIndex }) => ({
    ticker,
    date: reportDates[index]!,
    direction,
    cScore: scores[index]!,
    exitDate: exitIndex === null ? null : reportDates[exitIndex]!,
  }));
}

/** Every ticker's entries in a report history (`scores[ticker][i]` on `dates[i]`). */
export function historyLedger(history: { dates: readonly string[]; scores: Readonly<Record<string, readonly (number | null)[]>> }): LedgerEntry[] {
  return Object.entries(history.scores).flatMap(([ticker, scores]) => ledgerEntries(ticker, history.dates, scores));
}

/** An entry measured against the closes: the entry close, every horizon's outcome and the return to the exit. */
export function measureEntry(entry: LedgerEntry, prices: PriceSeries, benchmark: PriceSeries | null = null): LedgerRow {
  const { date, direction, exitDate } = entry;
  const entryClose = closeOnOrBefore(prices, date)?.close ?? null;
  const exitClose = exitDate === null ? null : (closeOnOrBefore(prices, exitDate)?.close ?? null);
  const exitChange = entryClose === null || exitClose === null ? null : exitClose / entryClose - 1;
  return {
    ...entry,
    entryClose,
    outcomes: TRACK_HORIZONS.map((h) => horizonOutcome(prices, date, direction, entryClose, h, benchmark)),
    exitReturn: exitChange === null ? null : direction === 'bullish' ? exitChange : -exitChange,
  };
}

/** Score bands of the calibration chart: by |C-Score|, the bearish ones mirrored; the first starts at the threshold. */
export const SCORE_BANDS = [
  { label: `${BULLISH_THRESHOLD}-75`, min: BULLISH_THRESHOLD, max: 75 },
  { label: '75-85', min: 75, max: 85 },
  { label: '85-100', min: 85, max: 100 },
] as const;

/** The band of a qualified score (|score| from the threshold up to 75, 75 up to 85, 85 to 100). */
export function scoreBand(score: number): (typeof SCORE_BANDS)[number]['label'] | null {
  const size = Math.abs(score);
  if (size < Math.min(BULLISH_THRESHOLD, -BEARISH_THRESHOLD)) return null;
  return SCORE_BANDS.find((b) => size >= b.min && (size < b.max || b.max === 100))?.label ?? null;
}

/** An aggregate of signals at one horizon: how many, how many resolved, the hit rate and the average return. */
export interface HorizonSummary {
  horizon: Horizon;
  /** Signals this figure rests on: resolved ones (closed or stopped). */
  resolved: number;
  /** Signals still open at this horizon. */
  open: number;
  hits: number;
  /** hits / resolved, or null with none resolved. */
  hitRate: number | null;
  /** Mean signal return of the resolved ones, or null. */
  averageReturn: number | null;
  /** The hit rate's 95% Wilson interval [low, high], or null with none resolved. */
  hitRateInterval: [number, number] | null;
  /** The mean return's 95% interval (normal approximation), or null under 2 resolved. */
  averageReturnInterval: [number, number] | null;
  /** Resolved signals with the benchmark's closes too: what the benchmark figures rest on. */
  benchmarkResolved: number;
  /** Mean price change of the benchmark over the same days as those signals, or null. */
  benchmarkReturn: number | null;
  /** Mean excess return over the benchmark in the signals' direction, or null. */
  excessReturn: number | null;
  excessReturnInterval: [number, number] | null;
  /** Signals that beat the benchmark (excess return above 0). */
  benchmarkHits: number;
  /** benchmarkHits / benchmarkResolved: the hit rate against the benchmark, or null. */
  hitRateVsBenchmark: number | null;
  hitRateVsBenchmarkInterval: [number, number] | null;
}

/** Hit rate and average return of `rows` at every horizon; a stopped ticker counts with its last close. */
export function summarize(rows: readonly LedgerRow[]): HorizonSummary[] {
  return TRACK_HORIZONS.map((horizon) => {
    let resolved = 0;
    let open = 0;
    let hits = 0;
    let sum = 0;
    let squares = 0;
    let benched = 0;
    let benchSum = 0;
    let excessSum = 0;
    let excessSquares = 0;
    let beats = 0;
    for (const row of rows) {
      const o = row.outcomes.find((x) => x.horizon === horizon)!;
      if (o.status === 'open') open++;
      if ((o.status === 'closed' || o.status === 'stopped') && o.signalReturn !== null) {
        resolved++;
        sum += o.signalReturn;
        squares += o.signalReturn * o.signalReturn;
        if (o.hit) hits++;
        if (o.excessReturn !== null && o.excessReturn !== undefined && o.benchmarkReturn !== null && o.benchmarkReturn !== undefined) {
          benched++;
          benchSum += o.benchmarkReturn;
          excessSum += o.excessReturn;
          excessSquares += o.excessReturn * o.excessReturn;
          if (o.excessReturn > 0) beats++;
        }
      }
    }
    return {
      horizon,
      resolved,
      open,
      hits,
      hitRate: resolved ? hits / resolved : null,
      averageReturn: resolved ? sum / resolved : null,
      hitRateInterval: wilsonInterval(hits, resolved),
      averageReturnInterval: meanInterval(resolved, sum, squares),
      benchmarkResolved: benched,
      benchmarkReturn: benched ? benchSum / benched : null,
      excessReturn: benched ? excessSum / benched : null,
      excessReturnInterval: meanInterval(benched, excessSum, excessSquares),
      benchmarkHits: beats,
      hitRateVsBenchmark: benched ? beats / benched : null,
      hitRateVsBenchmarkInterval: wilsonInterval(beats, benched),
    };
  });
}

/** The figures of one group of signals (a direction, a band, a sector): how many, and each horizon's summary. */
export interface TrackGroup {
  /** Signals in the group, open ones included. */
  signals: number;
  horizons: HorizonSummary[];
}

/** One score band of one direction: the calibration chart's bar. */
export interface BandGroup extends TrackGroup {
  direction: SignalSide;
  band: (typeof SCORE_BANDS)[number]['label'];
}

/** One sector of one direction. */
export interface SectorGroup extends TrackGroup {
  direction: SignalSide;
  sector: string;
}

/** The aggregates of the whole ledger: by direction, by score band and by sector. */
export interface TrackAggregates {
  signals: number;
  /** The first and last report dates of the ledger (null when it is empty). */
  firstDate: string | null;
  lastDate: string | null;
  directions: Record<SignalSide, TrackGroup>;
  bands: BandGroup[];
  sectors: SectorGroup[];
}

const SIDES: readonly SignalSide[] = ['bullish', 'bearish'];

function group(rows: readonly LedgerRow[]): TrackGroup {
  return { signals: rows.length, horizons: summarize(rows) };
}

/** Hit rate and average return by direction, by score band (bearish mirrored) and by sector (`sectorOf` a ticker, else "Unknown"). */
export function aggregateLedger(rows: readonly LedgerRow[], sectorOf: (ticker: string) => string | undefined): TrackAggregates {
  const bySide = new Map<SignalSide, LedgerRow[]>(SIDES.map((side) => [side, []]));
  const byBand = new Map<string, LedgerRow[]>();
  const bySector = new Map<string, LedgerRow[]>();
  let firstDate: string | null = null;
  let lastDate: string | null = null;
  for (const row of rows) {
    bySide.get(row.direction)!.push(row);
    const bandKey = `${row.direction}|${scoreBand(row.cScore)}`;
    (byBand.get(bandKey) ?? byBand.set(bandKey, []).get(bandKey)!).push(row);
    const sectorKey = `${row.direction}|${sectorOf(row.ticker) ?? 'Unknown'}`;
    (bySector.get(sectorKey) ?? bySector.set(sectorKey, []).get(sectorKey)!).push(row);
    if (firstDate === null || row.date < firstDate) firstDate = row.date;
    if (lastDate === null || row.date > lastDate) lastDate = row.date;
  }
  const bands = SIDES.flatMap((direction) => SCORE_BANDS.map((band) => ({ direction, band: band.label, ...group(byBand.get(`${direction}|${band.label}`) ?? []) })));
  const sectors = [...bySector.entries()]
    .map(([key, list]) => {
      const [direction, sector] = key.split('|') as [SignalSide, string];
      return { direction, sector, ...group(list) };
    })
    .sort((a, b) => a.sector.localeCompare(b.sector) || SIDES.indexOf(a.direction) - SIDES.indexOf(b.direction));
  return {
    signals: rows.length,
    firstDate,
    lastDate,
    directions: { bullish: group(bySide.get('bullish')!), bearish: group(bySide.get('bearish')!) },
    bands,
    sectors,
  };
}

/**
 * The recorded ledger after a run: entries already recorded keep what they said when first recorded (date, direction,
 * C-Score), so a later export that changes an old report leaves them alone; an exit date is filled once, when the
 * report it happens on arrives. Only the `republished` report dates (an operator's re-publish of that date) are
 * replaced by what the history says now. Returns the ledger and how many rows of the re-published dates changed.
 */
export function mergeLedger(
  recorded: readonly LedgerEntry[],
  computed: readonly LedgerEntry[],
  republished: ReadonlySet<string>,
): { ledger: LedgerEntry[]; added: number; replaced: number; exits: number } {
  const key = (e: LedgerEntry) => `${e.ticker}|${e.date}`;
  const same = (a: LedgerEntry | undefined, b: LedgerEntry | undefined) => a !== undefined && b !== undefined && a.direction === b.direction && a.cScore === b.cScore;
  const fresh = new Map(computed.map((entry) => [key(entry), entry]));
  const before = new Map(recorded.map((entry) => [key(entry), entry]));
  const kept = new Map<string, LedgerEntry>();
  let replaced = 0;
  let exits = 0;
  // An entry recorded without its supporting scores takes them once the history finds them (its archived export).
  const withScores = (entry: LedgerEntry, now: LedgerEntry | undefined): LedgerEntry => (entry.scores == null && now?.scores != null && same(entry, now) ? { ...entry, scores: now.scores } : entry);
  for (const entry of recorded) {
    const now = fresh.get(key(entry));
    if (republished.has(entry.date)) {
      if (!same(entry, now)) replaced += 1;
    } else if (entry.exitDate === null && now?.direction === entry.direction && now.exitDate !== null) {
      exits += 1;
      kept.set(key(entry), withScores({ ...entry, exitDate: now.exitDate }, now));
    } else kept.set(key(entry), withScores(entry, now));
  }
  let added = 0;
  for (const entry of computed) {
    if (kept.has(key(entry))) continue;
    if (!republished.has(entry.date)) added += 1;
    else if (!before.has(key(entry))) replaced += 1;
    kept.set(key(entry), entry);
  }
  const ledger = [...kept.values()].sort((a, b) => a.date.localeCompare(b.date) || a.ticker.localeCompare(b.ticker));
  return { ledger, added, replaced, exits };
}

/** A hit rate as a percent with 1 decimal ('62.5%'); none resolved shows '—'. */
export function formatHitRate(rate: number | null | undefined): string {
  return typeof rate === 'number' && Number.isFinite(rate) ? `${(rate * 100).toFixed(1)}%` : '—';
}
