/**
 * The facts sheets of the AI texts: what the model is handed, and what the pages show without a model. Every number a
 * reader of an AI text may see is in a facts sheet, built here from the published report; the validator
 * (ai-validator.ts) reads the numbers back out of the same text. Lines are plain sentences a reader can follow
 * ("Duke Energy (DUK): ..."); a list cut short says how much of it is shown ("5 of 10").
 */
import { formatDate, formatScore } from '../text/format';
import { currentlyQualified, recentlyQualified, reversalsAndExits } from '../signals/lists';
import type { SignalHistory, SignalRecord } from '../report/schemas';
import { classifySignal, isQualified, signalDirection, THRESHOLD_WORDS } from '../signals/signal';
import { similarTickers } from '../signals/similar';
import { tickerTrend } from '../trend/trend';

/** How many entries a facts list holds (strongest new signals, exits, reversals, sector shifts, similar tickers). */
export const FACTS_LIST_LIMIT = 5;
/** How many report dates a ticker's trend lists. */
export const FACTS_TREND_POINTS = 10;

/** One titled group of fact lines. */
export interface FactsSection {
  heading: string;
  lines: string[];
}

/** A facts sheet: the daily brief's (`ticker` null) or one ticker's. */
export interface FactsSheet {
  reportDate: string;
  ticker: string | null;
  title: string;
  sections: FactsSection[];
}

/** The C-Score rules every sheet carries, so a text may name the thresholds and windows. */
export const RULES_SECTION: FactsSection = {
  heading: 'The C-Score rules',
  lines: [
    'The C-Score ranges from -100 to +100.',
    `Bullish: a C-Score of ${THRESHOLD_WORDS.bullish}. Bearish: ${THRESHOLD_WORDS.bearish}. Neutral: in between.`,
    'A stock is qualified when it is bullish or bearish.',
    'History windows: 7 and 14 report days.',
  ],
};

/** A text from outside our data (a company name, a sector) on one line: no control characters, 200 characters at most. */
export function outsideText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** A facts list: the first FACTS_LIST_LIMIT entries as lines, then "Showing 5 of 10 exits." when it is cut. */
export function listLines<T>(items: readonly T[], line: (item: T) => string, what: string): string[] {
  const shown = items.slice(0, FACTS_LIST_LIMIT);
  return [...shown.map(line), ...(items.length > shown.length ? [`Showing ${shown.length} of ${items.length} ${what}.`] : [])];
}

function signed(value: number): string {
  const text = formatScore(value);
  return value > 0 ? `+${text}` : text;
}

/** "Duke Energy (DUK)", or the ticker alone when the export has no name. */
function nameOf(record: SignalRecord): string {
  const name = outsideText(record.companyName);
  return name && name !== record.ticker ? `${name} (${record.ticker})` : record.ticker;
}

/** "up 20.25 from 60.00 in the previous report", in words. */
function changeFrom(now: number, before: number): string {
  const diff = now - before;
  if (Math.round(diff * 100) === 0) return `unchanged from ${formatScore(before)} in the previous report`;
  return `${diff > 0 ? 'up' : 'down'} ${formatScore(Math.abs(diff))} from ${formatScore(before)} in the previous report`;
}

function hiddenFilter(hidden: ReadonlySet<string>) {
  return (ticker: string) => !hidden.has(ticker);
}

/** The previous report's C-Score of every ticker that had one. */
function previousScores(history: SignalHistory): Map<string, number> {
  const index = history.dates.length - 2;
  const scores = new Map<string, number>();
  if (index < 0) return scores;
  for (const [ticker, series] of Object.entries(history.scores)) {
    const score = series[index];
    if (score !== null && score !== undefined) scores.set(ticker, score);
  }
  return scores;
}

interface SectorShift {
  sector: string;
  tickers: number;
  average: number;
  previousAverage: number;
  bullish: number;
  bearish: number;
  previousBullish: number;
  previousBearish: number;
}

function sectorShifts(history: SignalHistory, shown: (ticker: string) => boolean): SectorShift[] {
  const previous = previousScores(history);
  const sectors = new Map<string, SignalRecord[]>();
  for (const record of history.latest) {
    // A hidden ticker counts in no sector figure: a small sector's average would give its score away.
    if (!record.sector || !shown(record.ticker)) continue;
    const group = sectors.get(record.sector);
    if (group) group.push(record);
    else sectors.set(record.sector, [record]);
  }
  const shifts: SectorShift[] = [];
  for (const [sector, records] of sectors) {
    const before = records.filter((r) => previous.has(r.ticker));
    if (before.length === 0) continue;
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const beforeScores = before.map((r) => previous.get(r.ticker)!);
    shifts.push({
      sector,
      tickers: records.length,
      average: mean(before.map((r) => r.cScore)),
      previousAverage: mean(beforeScores),
      bullish: records.filter((r) => signalDirection(r.cScore) === 'bullish').length,
      bearish: records.filter((r) => signalDirection(r.cScore) === 'bearish').length,
      previousBullish: beforeScores.filter((s) => signalDirection(s) === 'bullish').length,
      previousBearish: beforeScores.filter((s) => signalDirection(s) === 'bearish').length,
    });
  }
  const change = (s: SectorShift) => Math.abs(Math.round((s.average - s.previousAverage) * 100));
  return shifts.sort((a, b) => change(b) - change(a) || (a.sector < b.sector ? -1 : 1));
}

/**
 * The daily brief's facts: the day in numbers, the strongest new signals, the day's exits and reversals, and the
 * sectors whose average C-Score moved most. `hidden` tickers (top tickers locked with PAYWALL=on) appear in no list
 * and no sector figure (no score, no direction); the day's counts include them.
 */
export function dailyFacts(history: SignalHistory, reportDate: string, hidden: ReadonlySet<string> = new Set()): FactsSheet {
  const latest = history.latest;
  const shown = hiddenFilter(hidden);
  const bullish = latest.filter((r) => signalDirection(r.cScore) === 'bullish').length;
  const bearish = latest.filter((r) => signalDirection(r.cScore) === 'bearish').length;
  const { newToday } = recentlyQualified(history);
  const { exits, reversals } = reversalsAndExits(history);
  // A hidden ticker's exit or reversal on the report day would say its direction now.
  const dayExits = exits.filter((e) => e.date === reportDate && shown(e.ticker));
  const dayReversals = reversals.filter((e) => e.date === reportDate && shown(e.ticker));
  const records = new Map(latest.map((r) => [r.ticker, r]));

  const day: FactsSection = {
    heading: 'The day in numbers',
    lines: [
      `This is the report of ${formatDate(reportDate)} (${reportDate}).`,
      `It covers ${latest.length} stocks: ${bullish} bullish, ${bearish} bearish and ${latest.length - bullish - bearish} neutral.`,
      // The sheet names its report's day rather than "today": it is read on later days too.
      `${newToday.length} ${newToday.length === 1 ? 'stock became a new signal' : 'stocks became new signals'} in this report (qualified on ${formatDate(reportDate)}, not in the report before).`,
      `${dayExits.length} ${dayExits.length === 1 ? 'stock exited' : 'stocks exited'} a signal in this report and ${dayReversals.length} reversed direction.`,
    ],
  };
  const newShown = newToday.filter((r) => shown(r.ticker));
  const newSignals: FactsSection = {
    heading: 'Strongest new signals',
    lines:
      newShown.length === 0
        ? ['No new signals in this report.']
        : listLines(newShown, (r) => `${nameOf(r)}: ${classifySignal(r.cScore).toLowerCase()} with a C-Score of ${formatScore(r.cScore)}, ${changeFrom(r.cScore, r.yesterdayCScore)}.`, 'new signals, the strongest first'),
  };
  const eventLine = (e: { ticker: string; from: string; to: string }) => {
    const record = records.get(e.ticker);
    const name = record ? nameOf(record) : e.ticker;
    const score = record && shown(e.ticker) ? `; its C-Score is now ${formatScore(record.cScore)}` : '';
    return `${name}: from ${e.from} to ${e.to}${score}.`;
  };
  const changes: FactsSection = {
    heading: 'Exits and reversals in this report',
    lines:
      dayExits.length + dayReversals.length === 0
        ? ['No exits or reversals in this report.']
        : [...listLines(dayReversals, (e) => `Reversal, ${eventLine(e)}`, 'reversals'), ...listLines(dayExits, (e) => `Exit, ${eventLine(e)}`, 'exits')],
  };
  const shifts = sectorShifts(history, shown);
  const sectors: FactsSection = {
    heading: 'Sector shifts',
    lines:
      shifts.length === 0
        ? ['No earlier report to compare sectors with.']
        : listLines(
            shifts,
            (s) =>
              `${outsideText(s.sector)} (${s.tickers} stocks): the average C-Score is ${formatScore(s.average)}, against ${formatScore(s.previousAverage)} in the previous report (${signed(s.average - s.previousAverage)}); ${s.bullish} bullish (${s.previousBullish} before) and ${s.bearish} bearish (${s.previousBearish} before).`,
            'sectors, those that moved most first',
          ),
  };
  return { reportDate, ticker: null, title: `The signals of ${formatDate(reportDate)}`, sections: [day, newSignals, changes, sectors, RULES_SECTION] };
}

/**
 * One ticker's facts: its scores, 7- and 14-day figures, its trend over the last report dates and its similar
 * tickers (the stock page's rules). Null when the ticker is not in the report.
 */
export function tickerFacts(history: SignalHistory, reportDate: string, ticker: string, hidden: ReadonlySet<string> = new Set()): FactsSheet | null {
  const record = history.latest.find((r) => r.ticker === ticker);
  if (record === undefined) return null;
  const trend = tickerTrend(history, record, FACTS_TREND_POINTS);
  const first = trend[0];
  const sector = record.sector ? `Sector: ${outsideText(record.sector)}${record.subIndustry ? `; sub-industry: ${outsideText(record.subIndustry)}` : ''}.` : 'Sector: not known.';
  const scores: FactsSection = {
    heading: `${record.ticker} on ${formatDate(reportDate)}`,
    lines: [
      `Company: ${nameOf(record)}.`,
      sector,
      `C-Score: ${formatScore(record.cScore)} (${classifySignal(record.cScore)}), ${changeFrom(record.cScore, record.yesterdayCScore)} (${signed(record.cScore - record.yesterdayCScore)}).`,
      `Delta Score: ${formatScore(record.deltaScore)}. Market Score: ${formatScore(record.marketScore)}. Accuracy Score: ${formatScore(record.accuracyScore)}. Relevance Score: ${formatScore(record.relevanceScore)}.`,
      `Top signal: ${record.isTopTicker ? 'yes' : 'no'}. New signal in this report: ${record._signalChangeType === 'new' ? 'yes' : 'no'}.`,
    ],
  };
  const windows: FactsSection = {
    heading: '7- and 14-day figures',
    lines: [
      `7-Day Average: ${formatScore(record.avgCScoreL7D)}. 14-Day Average: ${formatScore(record.avgCScoreL14D)}.`,
      `7-Day Signals: ${record.countL7DWithSignal} of 7 days. 14-Day Signals: ${record.countL14DWithSignal} of 14 days.`,
    ],
  };
  const trendSection: FactsSection = {
    heading: `Trend over the last ${trend.length} reports`,
    lines: [
      ...trend.map((p) => `${p.date}: ${formatScore(p.cScore)} (${classifySignal(p.cScore)})`),
      ...(first && trend.length > 1 ? [`Change since ${first.date}: ${signed(record.cScore - first.cScore)}.`] : []),
    ],
  };
  const similar = similarTickers(record.ticker, history.latest).filter((s) => !hidden.has(s.ticker));
  const similarSection: FactsSection = {
    heading: 'Similar tickers (same sub-industry, then sector)',
    lines: similar.length === 0 ? ['None in this report.'] : listLines(similar, (s) => `${s.ticker}: C-Score ${formatScore(s.cScore)} (${classifySignal(s.cScore)}).`, 'similar tickers'),
  };
  return {
    reportDate,
    ticker: record.ticker,
    title: `${record.ticker}: the facts of ${formatDate(reportDate)}`,
    sections: [scores, windows, trendSection, similarSection, RULES_SECTION],
  };
}

/** A facts sheet as Markdown: what the model is handed and what "show the facts" shows. */
export function factsText(sheet: FactsSheet): string {
  return [`# ${sheet.title}`, ...sheet.sections.map((s) => [`## ${s.heading}`, ...s.lines.map((line) => `- ${line}`)].join('\n'))].join('\n\n');
}

/** Qualified stocks of the latest report in a direction (and sector, matched without regard to case), strongest first. */
export function qualifiedStocks(history: SignalHistory, direction: 'bullish' | 'bearish', sector?: string): SignalRecord[] {
  const wanted = sector?.trim().toLowerCase();
  return currentlyQualified(history).filter(
    (r) => isQualified(r.cScore) && signalDirection(r.cScore) === direction && (wanted === undefined || wanted === '' || (r.sector ?? '').toLowerCase() === wanted),
  );
}
