/**
 * Seeded generator of sample daily exports (pure: no file system, no clock).
 *
 * Every ticker's C-Score is a bounded mean-reverting walk around its own long-run level (most near 0, some
 * strongly bullish or bearish), with rare regime shocks that move the level (sometimes across zero). The walk
 * runs `WARMUP_DAYS` trading days before the first written report so yesterday's score and the 7/14-report
 * windows are full from the first file on. Two scripted flips three reports before the end make sure the
 * latest five reports always hold a reversal. Same options, same output.
 */
import { tradingDaysEnding } from '../../src/lib/domain/market-data/calendar';
import { isQualified, signalDirection } from '../../src/lib/domain/signals/signal';

/** One row of the universe file, all eight columns kept as text. */
export interface UniverseRow {
  symbol: string;
  security: string;
  sector: string;
  subIndustry: string;
  headquarters: string;
  dateAdded: string;
  cik: string;
  founded: string;
}

/** Defaults of the generator and of `npm run sample`. */
export const SAMPLE_DEFAULTS = { days: 60, tickers: 503, seed: 20261120, end: '2026-11-20' } as const;

/** Trading days simulated before the first written report. */
const WARMUP_DAYS = 20;

/** One ticker on one report, as written to the export. Scores are rounded to 2 decimals. */
export interface SampleRow {
  ticker: string;
  companyName: string;
  /** ISO date; the file may write it in US style (see SampleDay.dateStyle). */
  reportDate: string;
  cScore: number;
  yesterdayCScore: number;
  deltaScore: number;
  accuracyScore: number;
  marketScore: number;
  relevanceScore: number;
  avgCScoreL7D: number;
  avgCScoreL14D: number;
  countL7DWithSignal: number;
  countL14DWithSignal: number;
  isTopTicker: boolean;
}

/** One report date and how its file is written. */
export interface SampleDay {
  date: string;
  /** 'xlsx' every 10th report (the 5th, 15th, ...), else 'csv'. */
  format: 'csv' | 'xlsx';
  /** 'us' (M/D/YYYY text) on every 7th CSV report (the 7th, 14th, ...), else 'iso'. XLSX uses a real date cell. */
  dateStyle: 'iso' | 'us';
  rows: SampleRow[];
}

export interface SampleOptions {
  /** The real universe rows, in file order. */
  universe: UniverseRow[];
  days?: number;
  tickers?: number;
  seed?: number;
  /** Last report date (ISO); the last written report is the last trading day on or before it. */
  end?: string;
}

export interface Sample {
  /** The companies covered, in row order: the first N real rows, then synthetic ones. */
  universe: UniverseRow[];
  days: SampleDay[];
}

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness

function mix(a: number, b: number): number {
  let h = (a ^ Math.imul((b + 0x9e3779b9) | 0, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a small, fast 32-bit PRNG returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/** Rounds to 2 decimals, never returning -0. */
function round2(v: number): number {
  const r = Math.round(v * 100) / 100;
  return r === 0 ? 0 : r;
}

// ---------------------------------------------------------------------------------------------------------
// Universe

/** The first `count` real rows, then synthetic SYN0001... rows with sector pairs drawn from the real ones. */
function buildUniverse(real: UniverseRow[], count: number, seed: number): UniverseRow[] {
  if (real.length === 0) throw new Error('universe: no companies');
  const out = real.slice(0, count);
  const synthetic = count - out.length;
  const width = Math.max(4, String(synthetic).length);
  for (let k = 1; k <= synthetic; k++) {
    const rng = mulberry32(mix(seed ^ 0x5ec7012, k));
    const pick = real[Math.floor(rng() * real.length)]!;
    const num = String(k).padStart(width, '0');
    out.push({
      symbol: `SYN${num}`,
      security: `Synthetic Company ${num}`,
      sector: pick.sector,
      subIndustry: pick.subIndustry,
      headquarters: 'Synthetic',
      dateAdded: '',
      cik: '',
      founded: '',
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The walk

interface Walker {
  rng: () => number;
  level: number;
  kappa: number;
  sigma: number;
  relevance: number;
  x: number;
  /** Set on the scripted flips: no regime shock may undo them. */
  scripted: boolean;
}

function drawLevel(rng: () => number): number {
  const u = rng();
  if (u < 0.15) return 58 + rng() * 30; // strongly bullish
  if (u < 0.3) return -(58 + rng() * 30); // strongly bearish
  return clamp(normal(rng) * 20, -45, 45);
}

function newWalker(seed: number, index: number): Walker {
  const rng = mulberry32(mix(seed, index));
  const level = drawLevel(rng);
  const kappa = 0.1 + rng() * 0.12;
  const sigma = 3.5 + rng() * 4;
  const relevance = 25 + rng() * 65;
  const sd = sigma / Math.sqrt(kappa * (2 - kappa));
  const x = clamp(level + normal(rng) * sd, -100, 100);
  return { rng, level, kappa, sigma, relevance, x, scripted: false };
}

/** Maps each value to its forced-ranking score in (-100, 100): lowest near -100, highest near +100. */
function forcedRanking(values: Float64Array): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
  const out = new Float64Array(n);
  order.forEach((idx, rank) => {
    out[idx] = -100 + (200 * (rank + 0.5)) / n;
  });
  return out;
}

/** Generates every report of the sample in memory. */
export function generateSample(options: SampleOptions): Sample {
  const days = options.days ?? SAMPLE_DEFAULTS.days;
  const tickers = options.tickers ?? SAMPLE_DEFAULTS.tickers;
  const seed = options.seed ?? SAMPLE_DEFAULTS.seed;
  const end = options.end ?? SAMPLE_DEFAULTS.end;
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
  if (!Number.isInteger(tickers) || tickers < 1) throw new RangeError(`tickers must be a positive integer, got ${tickers}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);

  const universe = buildUniverse(options.universe, tickers, seed);
  const n = universe.length;
  const allDates = tradingDaysEnding(end, WARMUP_DAYS + days);
  const total = allDates.length;
  const firstWritten = WARMUP_DAYS;

  const walkers = universe.map((_, i) => newWalker(seed, i));
  const market = mulberry32(mix(seed, 0x7fffffff));
  const sectors = [...new Set(universe.map((u) => u.sector))];
  const sectorOf = universe.map((u) => sectors.indexOf(u.sector));

  // Rounded C-Scores per simulated day (warm-up included).
  const history: Float64Array[] = [];
  const result: SampleDay[] = [];
  const flipDay = total - 3; // two scripted reversals land inside the last five reports

  for (let t = 0; t < total; t++) {
    const c = new Float64Array(n);
    const prev = history[t - 1];
    if (t === flipDay && prev && days >= 5) scriptFlips(walkers, prev, market);
    for (let i = 0; i < n; i++) {
      const w = walkers[i]!;
      if (t > 0) {
        if (w.rng() < 0.006 && !w.scripted) {
          // Regime shock: a new long-run level, the score jumps part of the way there.
          w.level = drawLevel(w.rng);
          w.x += 0.5 * (w.level - w.x);
        }
        w.x = clamp(w.x + w.kappa * (w.level - w.x) + w.sigma * normal(w.rng), -100, 100);
      }
      c[i] = round2(w.x);
    }
    history.push(c);
    if (t < firstWritten) continue;

    const date = allDates[t]!;
    const yesterday = history[t - 1]!;
    const sectorMove = sectors.map(() => normal(market) * 15);
    const deltaIn = new Float64Array(n);
    const marketIn = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const w = walkers[i]!;
      deltaIn[i] = c[i]! - yesterday[i]! + 0.15 * c[i]! + normal(w.rng) * 4;
      marketIn[i] = 0.7 * c[i]! + sectorMove[sectorOf[i]!]! + normal(w.rng) * 25;
    }
    const delta = forcedRanking(deltaIn);
    const mkt = forcedRanking(marketIn);

    // Top tickers: the 5 to 10 strongest qualified by |C| (ties by ticker).
    const topCount = 5 + Math.floor(market() * 6);
    const qualified = [];
    for (let i = 0; i < n; i++) if (isQualified(c[i])) qualified.push(i);
    qualified.sort((a, b) => Math.abs(c[b]!) - Math.abs(c[a]!) || (universe[a]!.symbol < universe[b]!.symbol ? -1 : 1));
    const top = new Set(qualified.slice(0, topCount));

    const rows: SampleRow[] = [];
    for (let i = 0; i < n; i++) {
      const w = walkers[i]!;
      let sum7 = 0;
      let sum14 = 0;
      let count7 = 0;
      let count14 = 0;
      for (let k = t - 13; k <= t; k++) {
        const v = history[k]![i]!;
        const q = isQualified(v) ? 1 : 0;
        sum14 += v;
        count14 += q;
        if (k > t - 7) {
          sum7 += v;
          count7 += q;
        }
      }
      rows.push({
        ticker: universe[i]!.symbol,
        companyName: universe[i]!.security,
        reportDate: date,
        cScore: c[i]!,
        yesterdayCScore: yesterday[i]!,
        deltaScore: round2(delta[i]!),
        accuracyScore: round2(clamp(45 + 0.35 * Math.abs(c[i]!) + normal(w.rng) * 10, 0, 100)),
        marketScore: round2(mkt[i]!),
        relevanceScore: round2(clamp(w.relevance + normal(w.rng) * 8, 0, 100)),
        avgCScoreL7D: round2(sum7 / 7),
        avgCScoreL14D: round2(sum14 / 14),
        countL7DWithSignal: count7,
        countL14DWithSignal: count14,
        isTopTicker: top.has(i),
      });
    }
    const pos = t - firstWritten + 1; // 1-based position of the report
    const format = pos % 10 === 5 ? 'xlsx' : 'csv';
    const dateStyle = format === 'csv' && pos % 7 === 0 ? 'us' : 'iso';
    result.push({ date, format, dateStyle, rows });
  }
  return { universe, days: result };
}

/** Flips one strongly bullish and one strongly bearish ticker to the other side, for a guaranteed reversal. */
function scriptFlips(walkers: Walker[], prev: Float64Array, rng: () => number): void {
  for (const sign of [1, -1]) {
    const candidates: number[] = [];
    for (let i = 0; i < walkers.length; i++) if (sign * prev[i]! >= 72) candidates.push(i);
    if (candidates.length === 0) continue;
    const w = walkers[candidates[Math.floor(rng() * candidates.length)]!]!;
    w.level = -sign * (80 + rng() * 8);
    w.x = w.level; // the day's step adds only noise: the score lands near the new level
    w.scripted = true;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dynamics (reported by the script; the tests recompute them independently)

/** Counts, on the latest report, of the list contents the sample is meant to populate. */
export interface SampleDynamics {
  date: string;
  bullish: number;
  bearish: number;
  newlyQualified: number;
  exitsLast5: number;
  reversalsLast5: number;
  topTickers: number;
}

/** Measures the latest report's list dynamics (qualified as signalDirection says; windows over the last 5 reports). */
export function measureDynamics(sample: Sample): SampleDynamics {
  const days = sample.days;
  const last = days[days.length - 1];
  if (!last) throw new Error('empty sample');
  const window = days.slice(-5);
  let exits = 0;
  let reversals = 0;
  for (let i = 0; i < last.rows.length; i++) {
    const sides = window.map((d) => signalDirection(d.rows[i]!.cScore));
    for (let k = 1; k < sides.length; k++) if (sides[k - 1] !== 'neutral' && sides[k] === 'neutral') exits++;
    const signed = sides.filter((s) => s !== 'neutral');
    for (let k = 1; k < signed.length; k++) if (signed[k] !== signed[k - 1]) reversals++;
  }
  const prev = days[days.length - 2];
  return {
    date: last.date,
    bullish: last.rows.filter((r) => signalDirection(r.cScore) === 'bullish').length,
    bearish: last.rows.filter((r) => signalDirection(r.cScore) === 'bearish').length,
    newlyQualified: prev ? last.rows.filter((r, i) => isQualified(r.cScore) && !isQualified(prev.rows[i]!.cScore)).length : 0,
    exitsLast5: exits,
    reversalsLast5: reversals,
    topTickers: last.rows.filter((r) => r.isTopTicker).length,
  };
}
