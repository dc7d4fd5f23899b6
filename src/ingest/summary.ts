/** What the daily job reports when it ends, and the lines it prints (docs/data-flow.md, the integration tests). */
import { relative, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config';
import type { ReportSource } from '../lib/domain/report/report-source';
import type { FundamentalsSummary } from './fundamentals';
import type { Correction, GateOverride } from '../lib/domain/operator/gates';
import { formatStageTimes, type StageTime } from './progress';

/** The figures the job prints when it ends. */
export interface DailySummary {
  status: 'published' | 'up-to-date';
  pulled: number;
  added: number;
  /** The names of the new files. */
  addedFiles: string[];
  alreadyArchived: number;
  ignored: string[];
  rows: number;
  tickers: number;
  reportDates: string[];
  warnings: string[];
  pages: number;
  seconds: number;
  /** The time of each stage, in order. */
  stages?: StageTime[];
  /**
   * How the history store served the run: archived files from its assembled history, entries read back, files parsed
   * and kept, entries found stale.
   */
  store?: { assembled: number; reused: number; made: number; rebuilt: number };
  /** What the fundamentals step fetched (absent without a key). */
  fundamentals?: FundamentalsSummary;
  /** Where the published report comes from (absent when nothing was published). */
  source?: ReportSource;
  /** Data gates the operator accepted for this run (`--accept GATE`), with what each would have stopped. */
  overrides: GateOverride[];
  /** Report dates before the latest one that this run added or replaced (accepted with `--accept backdated`). */
  corrections: Correction[];
  /** The archived file this run withdrew (`npm run archive -- withdraw FILE`), by name, or null. */
  withdrawn: string | null;
  /** PUBLISH_COMMAND's output after the swap (absent when none is set or nothing was published); the run log keeps it. */
  published?: string[];
  /** What the alerts step did: events stored, digests queued and sent, any given up (absent without alerts). */
  alerts?: string[];
  /** What the track-record step did: closes stored, ledger entries recorded, re-published dates rewritten (absent without it). */
  track?: string[];
}

const SHOWN_WARNINGS = 20;

/** The gate overrides, corrections and withdrawal of a run as lines of text (the printed summary and the run log's notes). */
export function gateNotes(summary: Pick<DailySummary, 'overrides' | 'corrections' | 'withdrawn'>): Record<string, string[]> {
  const notes: Record<string, string[]> = {};
  if (summary.overrides.length > 0) notes.overrides = summary.overrides.map((o) => `--accept ${o.gate} for ${o.file}: ${o.message}`);
  if (summary.corrections.length > 0) notes.corrections = summary.corrections.map((c) => `${c.date} ${c.change} by ${c.file}`);
  if (summary.withdrawn !== null) notes.withdrawn = [`${summary.withdrawn}, rebuilt from the rest of the archive`];
  return notes;
}

/** The summary as the job prints it; `where` is the job's source and output folder as configured. */
export function formatSummary(summary: DailySummary, where: { source: string; distDir: string }): string {
  const dates = summary.reportDates;
  const lines = [
    `Daily job ${summary.status === 'published' ? 'published the site' : 'found nothing new: the published site is up to date'}.`,
    `  source:       ${where.source}`,
    `  files:        ${summary.pulled} pulled, ${summary.added} new, ${summary.alreadyArchived} already archived${summary.ignored.length ? `, ${summary.ignored.length} ignored (${summary.ignored.join(', ')})` : ''}`,
  ];
  if (summary.status === 'published') {
    lines.push(
      `  rows:         ${summary.rows}`,
      `  tickers:      ${summary.tickers} on ${dates.at(-1)}`,
      `  report dates: ${dates.length} (${dates[0]} to ${dates.at(-1)})`,
      `  pages:        ${summary.pages} HTML pages, smoke check passed`,
      `  data:         ${summary.source === 'sample' ? 'the generated sample exports: every page says so' : 'signal exports'}`,
      `  output:       ${relative(process.cwd(), resolve(PROJECT_ROOT, where.distDir)) || '.'}/`,
    );
  }
  const f = summary.fundamentals;
  if (f) lines.push(`  fundamentals: ratios for ${f.ratios} tickers, earnings dates for ${f.earnings}${f.complete ? '' : `; stopped early, the next run resumes (${f.stoppedBy})`}`);
  const gates = gateNotes(summary);
  for (const line of gates.withdrawn ?? []) lines.push(`  withdrawn:    ${line}`);
  for (const line of gates.corrections ?? []) lines.push(`  correction:   ${line}`);
  for (const line of gates.overrides ?? []) lines.push(`  accepted:     ${line}`);
  if (summary.store) {
    const { assembled, reused, made, rebuilt } = summary.store;
    const parts = [...(assembled ? [`${assembled} archived file(s) from the assembled history`] : []), `${reused} from the store`, `${made} parsed${rebuilt ? ` (${rebuilt} stale or unreadable, made again)` : ''}`];
    lines.push(`  history:      ${parts.join(', ')}`);
  }
  if (summary.published !== undefined) lines.push(`  published:    PUBLISH_COMMAND succeeded (${summary.published.length} line(s) of output, kept in the run log)`);
  for (const line of summary.alerts ?? []) lines.push(`  alerts:       ${line}`);
  for (const line of summary.track ?? []) lines.push(`  track:        ${line}`);
  lines.push(`  warnings:     ${summary.warnings.length}`);
  for (const warning of summary.warnings.slice(0, SHOWN_WARNINGS)) lines.push(`    ${warning}`);
  if (summary.warnings.length > SHOWN_WARNINGS) lines.push(`    ... and ${summary.warnings.length - SHOWN_WARNINGS} more`);
  lines.push(`  seconds:      ${summary.seconds.toFixed(1)}`);
  if (summary.stages?.length) lines.push(`  stages:       ${formatStageTimes(summary.stages)}`);
  return lines.join('\n');
}
