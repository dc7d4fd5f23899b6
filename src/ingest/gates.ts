/**
 * The data gates (docs/limits-and-gates.md): checks a run's new files must pass before anything is published, each
 * with a name an operator can pass to `--accept` for the rare true case. A gate that is not accepted stops the job
 * with a message naming the file and the gate; an accepted one is recorded in the summary.
 */
import { newYorkDate } from '../lib/domain/market-data/calendar';
import { nextTradingDay, type Correction, type GateName, type GateOverride } from '../lib/domain/operator/gates';
import type { ArchivedFile } from '../lib/domain/report/schemas';
import { DailyJobError } from './error';
import type { FileScores } from './history-store';

/** What the gates let through: the overrides used, and the dates corrected. */
export interface GateResult {
  overrides: GateOverride[];
  corrections: Correction[];
}

/** A run's settings for the gates. */
export interface GateSettings {
  accept: ReadonlySet<GateName>;
  tickerDropPercent: number;
  /** The time of the run (ms), for "the next trading day in New York". */
  now: number;
}

/** Each report date's ticker count and the file its report comes from. */
export type ReportSizes = ReadonlyMap<string, { tickers: number; file: string }>;

/** Each report date's ticker count, the file archived later winning a date (as buildHistory assembles them). */
export function reportSizes(files: readonly FileScores[]): Map<string, { tickers: number; file: string }> {
  const sizes = new Map<string, { tickers: number; file: string }>();
  for (const file of files) for (const day of file.dates) sizes.set(day.date, { tickers: day.tickers.length, file: file.fileName });
  return sizes;
}

function latestOf(dates: Iterable<string>): string | undefined {
  let latest: string | undefined;
  for (const date of dates) if (latest === undefined || date > latest) latest = date;
  return latest;
}

/**
 * Runs the gates on a run's new files against what the archive held. Throws a DailyJobError naming every file and gate
 * that stops the run (exit code 1); returns the overrides used and the corrected dates.
 */
export function checkGates(before: ReportSizes, added: readonly { file: ArchivedFile; scores: FileScores }[], settings: GateSettings): GateResult {
  const stops: string[] = [];
  const overrides: GateOverride[] = [];
  const corrections: Correction[] = [];
  const gate = (name: GateName, file: string, message: string, fix: string) => {
    if (settings.accept.has(name)) overrides.push({ gate: name, file, message });
    else stops.push(`  ${file}: ${message} ${fix}; to publish it as it is, run again with --accept ${name}.`);
  };

  const today = newYorkDate(settings.now);
  const nextDay = nextTradingDay(today);
  for (const { file } of added) {
    const future = file.reportDates.filter((date) => date > nextDay);
    if (future.length > 0) {
      gate('future-date', file.fileName, `refused by the gate future-date: its report date ${future.join(', ')} is after the next trading day in New York (${nextDay}).`, 'Fix the date at the source');
    }
  }

  const previousLatest = latestOf(before.keys());
  if (previousLatest !== undefined) {
    for (const { file } of added) {
      const older = file.reportDates.filter((date) => date < previousLatest);
      if (older.length === 0) continue;
      const changes = older.map((date): Correction => ({ date, change: before.has(date) ? 'replaced' : 'added', file: file.fileName }));
      const words = changes.map((c) => `${c.change === 'added' ? 'adds' : 'replaces'} ${c.date}`).join(', ');
      const accepted = settings.accept.has('backdated');
      gate('backdated', file.fileName, `held by the gate backdated: it ${words}, older than the latest report (${previousLatest}).`, 'If it is not a correction, remove it from the source');
      if (accepted) for (const change of changes) corrections.push(change);
    }

    const after = new Map([...before, ...reportSizes(added.map((a) => a.scores))]);
    const latest = latestOf(after.keys())!;
    const was = before.get(previousLatest)!.tickers;
    const now = after.get(latest)!;
    const floor = was * (1 - settings.tickerDropPercent / 100);
    if (now.tickers < floor) {
      const drop = ((1 - now.tickers / was) * 100).toFixed(1);
      gate(
        'ticker-drop',
        now.file,
        `held by the gate ticker-drop: the latest report (${latest}) would have ${now.tickers} ticker(s) against ${was} on ${previousLatest}, ${drop}% fewer (the limit is ${settings.tickerDropPercent}%, GATE_TICKER_DROP_PERCENT).`,
        'If the export is incomplete, export it again',
      );
    }
  }

  if (stops.length > 0) {
    throw new DailyJobError(
      [`Stopped by ${stops.length} data gate(s); nothing was archived or published, the site stays as it was:`, ...stops, 'docs/limits-and-gates.md explains each gate.'].join('\n'),
    );
  }
  return { overrides, corrections };
}
