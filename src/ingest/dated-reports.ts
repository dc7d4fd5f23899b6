/**
 * Writes the dated daily files (`api/reports/{date}.json`, lib/domain/report/dated-report.ts) into a fresh build's
 * static API folder. Each build starts from an empty folder, so a date the published build already has is hard-linked
 * from it (with its compressed copies) instead of written again: a new day writes one file, however long the archive.
 */
import { copyFileSync, linkSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { freeSlice, visibleRows } from '../lib/domain/accounts/entitlements';
import {
  DATED_REPORTS_DIR,
  DATED_REPORTS_INDEX,
  datedReportPath,
  DatedReportIndexSchema,
  keepsDatedFile,
  recordsReport,
  scoresReport,
  type DatedReportEntry,
  type DatedReportFile,
} from '../lib/domain/report/dated-report';
import type { ArchivedFile, SignalHistory } from '../lib/domain/report/schemas';
import type { OnWritten } from './static-api';

/** Dated files made from the history between two turns of the event loop. */
const YIELD_EVERY = 10;

/** What a run of writeDatedReports did: files written, files kept (linked) from the published build, their paths. */
export interface DatedReportsOutcome {
  written: number;
  kept: number;
  /** The kept files and their compressed copies (relative to the folder, `/`-separated): nothing compresses them again. */
  keptPaths: string[];
}

/** The published build's index, or an empty one when it has none or it does not read back. */
function publishedIndex(previousDir: string | null): Map<string, DatedReportEntry> {
  if (previousDir === null) return new Map();
  try {
    const parsed = DatedReportIndexSchema.safeParse(JSON.parse(readFileSync(join(previousDir, DATED_REPORTS_INDEX), 'utf8')));
    return new Map(parsed.success ? parsed.data.reports.map((entry) => [entry.reportDate, entry]) : []);
  } catch {
    return new Map();
  }
}

/** Hard-links (or, across file systems, copies) a published file into the new folder; false when it is gone. */
function linkFrom(previousDir: string, dir: string, relativePath: string): boolean {
  const from = join(previousDir, relativePath);
  const to = join(dir, relativePath);
  try {
    linkSync(from, to);
    return true;
  } catch {
    try {
      copyFileSync(from, to);
      return true;
    } catch {
      return false;
    }
  }
}

/** The archived file each report date comes from (a later file's copy of a date wins, as in the history). */
function sourceOfDates(files: readonly ArchivedFile[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const file of files) for (const date of file.reportDates) sources.set(date, file.id);
  return sources;
}

/**
 * Writes one dated file per report date of `history` under `${dir}/api/reports`, and the index. The latest report is
 * written whole from its records; an earlier one the published build has (same archived file, same view) is linked;
 * an earlier one it lacks is made from the C-Scores the history keeps. With `paywall` (PAYWALL=on) files hold what an
 * anonymous visitor may see: the latest report's free rows, and no earlier report that was not published so.
 */
export async function writeDatedReports(
  dir: string,
  history: SignalHistory,
  files: readonly ArchivedFile[],
  options: { paywall: boolean; previousDir: string | null; onWritten?: OnWritten },
): Promise<DatedReportsOutcome> {
  const { paywall, previousDir, onWritten = () => undefined } = options;
  await mkdir(join(dir, DATED_REPORTS_DIR), { recursive: true });
  const view: DatedReportFile['view'] = paywall ? 'free' : 'public';
  const published = publishedIndex(previousDir);
  const sources = sourceOfDates(files);
  const latestDate = history.dates.at(-1);
  const tickerScores = Object.entries(history.scores);
  const index: DatedReportEntry[] = [];
  const outcome: DatedReportsOutcome = { written: 0, kept: 0, keptPaths: [] };
  const write = (relativePath: string, body: unknown) => {
    const bytes = Buffer.from(JSON.stringify(body));
    writeFileSync(join(dir, relativePath), bytes);
    onWritten(relativePath, bytes);
  };
  for (const [i, date] of history.dates.entries()) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const source = sources.get(date) ?? '';
    const relativePath = datedReportPath(date).slice(1);
    const entry = (kind: DatedReportFile['kind']): DatedReportEntry => ({ reportDate: date, path: datedReportPath(date), kind, view, source });
    if (date === latestDate) {
      const records = paywall ? visibleRows(history.latest, freeSlice(history.latest), { paywall, isPro: false }, (r) => r.ticker).rows : history.latest;
      write(relativePath, recordsReport(date, records, view));
      outcome.written += 1;
      index.push(entry('records'));
      continue;
    }
    const before = published.get(date);
    if (previousDir !== null && keepsDatedFile(before, source, view) && linkFrom(previousDir, dir, relativePath)) {
      outcome.kept += 1;
      outcome.keptPaths.push(relativePath);
      for (const copy of [`${relativePath}.br`, `${relativePath}.gz`]) if (linkFrom(previousDir, dir, copy)) outcome.keptPaths.push(copy);
      index.push(before);
      continue;
    }
    // The free view shows no report but the day's: an earlier one was never published to anonymous visitors.
    if (paywall) continue;
    write(relativePath, scoresReport(date, scoresOn(tickerScores, i)));
    outcome.written += 1;
    index.push(entry('scores'));
  }
  write(DATED_REPORTS_INDEX, { reports: index });
  return outcome;
}

/** Each ticker's C-Score on the history's `i`th date, for the tickers in that report. */
function* scoresOn(tickerScores: readonly [string, readonly (number | null)[]][], i: number): Generator<readonly [string, number]> {
  for (const [ticker, scores] of tickerScores) {
    const score = scores[i];
    if (score !== null && score !== undefined) yield [ticker, score];
  }
}
