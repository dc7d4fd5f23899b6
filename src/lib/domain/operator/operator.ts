/**
 * The operator tools' shared words: the upload limits, the daily job's stages and triggers, what a check
 * of uploaded exports answers, and the preview's changes against the published report. The server, the daily job
 * and the pages all read them from here.
 */
import { reversalsAndExits, recentlyQualified, type SignalExit, type SignalReversal } from '../signals/lists';
import type { SignalHistory, SignalRecord } from '../report/schemas';
import { signalDirection } from '../signals/signal';

/** Largest export file an upload accepts: 25 MB. */
export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
/** Most export files one upload request carries. */
export const MAX_UPLOAD_FILES = 10;

/** The whole upload request's limit: every file at its limit, and room for the form's own lines (nginx's limit too). */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_FILES * MAX_UPLOAD_FILE_BYTES + 1024 * 1024;

/** How recent "signed in lately" is on /admin: 7 days. */
export const RECENT_SIGN_IN_DAYS = 7;

/** What started a daily job: the command line (cron), an upload on /upload, the token route, or `npm start`; `ai`: the AI number check. */
export const RUN_TRIGGERS = ['cli', 'upload', 'token', 'start', 'ai'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** How a daily job ended; `running` until it has. */
export type RunOutcome = 'running' | 'published' | 'up-to-date' | 'refused' | 'failed';

/** The daily job's stages, in order, as the upload page shows them. */
export const PUBLISH_STAGES = ['pull', 'parse', 'build', 'smoke', 'swap'] as const;
export type PublishStage = (typeof PUBLISH_STAGES)[number];

/** Each stage's name on the page. */
export const STAGE_LABELS: Record<PublishStage, string> = {
  pull: 'Pull and validate the new files',
  parse: 'Read the archive and the new files',
  build: 'Build the site',
  smoke: 'Smoke check',
  swap: 'Swap the new build in',
};

/** An uploaded export: its name as sent and its bytes. */
export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** One reason a file is refused, where it is and what to fix. */
export interface FileProblem {
  file: string;
  row?: number;
  column?: string;
  message: string;
}

/** One accepted file of a preview. */
export interface FilePreview {
  file: string;
  kind: 'csv' | 'xlsx';
  bytes: number;
  reportDates: string[];
  rows: number;
  tickers: number;
  sheets: { name: string; rows: number; isActive: boolean }[];
  bullish: number;
  bearish: number;
  /** Archived files that hold one of its report dates: publishing it replaces their report for that date. */
  replaces: { reportDate: string; file: string }[];
}

/** The changes a publish would make to the latest report (`changesAgainstPublished`). */
export interface ReportChanges {
  reportDate: string;
  /** The latest report date of the published site, or null when nothing is published. */
  publishedReportDate: string | null;
  newSignals: { ticker: string; cScore: number; direction: 'bullish' | 'bearish' }[];
  exits: SignalExit[];
  reversals: SignalReversal[];
}

/** What the upload page shows before "Publish". */
export interface UploadPreview {
  files: FilePreview[];
  changes: ReportChanges;
  warnings: string[];
}

/** How a publish ended, as the upload page and the token route show it. */
export interface PublishResult {
  outcome: Exclude<RunOutcome, 'running'>;
  reportDate: string | null;
  warnings: string[];
  /** The refusal or failure, line by line (empty on success). */
  messages: string[];
  /** The daily job's summary as `npm run daily` prints it. */
  summary: string;
}

/** One daily job of the run log, as /admin shows it. */
export interface RunLogEntry {
  id: string;
  trigger: RunTrigger;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  outcome: RunOutcome;
  reportDate: string | null;
  files: string[];
  warnings: string[];
  /** The refusal or failure messages. */
  messages: string[];
  /** Any other list of notes the job's summary carried, by its name. */
  notes: Record<string, string[]>;
}

/**
 * The operator role: an address ADMIN_EMAILS lists (`operators`, lower-cased) whose owner has confirmed it. Anyone can
 * sign up with an operator's address; until the mailed link proves the mailbox, the account holds no role.
 */
export function holdsOperatorRole(email: string, emailConfirmed: boolean, operators: ReadonlySet<string>): boolean {
  return emailConfirmed && operators.has(email.toLowerCase());
}

/** An API token as /admin lists it (never the token itself). */
export interface ApiTokenEntry {
  id: string;
  label: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The user counts of /admin. */
export interface UserCounts {
  total: number;
  pro: number;
  signedInLately: number;
}

/** One user as /admin shows them. */
export interface UserOverview {
  email: string;
  name: string;
  createdAt: string | null;
  plan: 'free' | 'pro';
  /** Pro granted by an operator. */
  grantedPro: boolean;
  /** An active or trialing Stripe subscription. */
  subscribed: boolean;
  lastSignInAt: string | null;
}

/** Bullish and bearish qualified counts of a report's records. */
export function qualifiedCounts(records: readonly SignalRecord[]): { bullish: number; bearish: number } {
  let bullish = 0;
  let bearish = 0;
  for (const record of records) {
    const direction = signalDirection(record.cScore);
    if (direction === 'bullish') bullish += 1;
    else if (direction === 'bearish') bearish += 1;
  }
  return { bullish, bearish };
}

/**
 * The new signals, exits and reversals on the latest report of `history` (the archive with the uploaded files in
 * it), read by the same list rules as Recently Qualified and Reversals & Exits; `publishedReportDate` is what the
 * site shows today.
 */
export function changesAgainstPublished(history: SignalHistory, publishedReportDate: string | null): ReportChanges {
  const reportDate = history.dates.at(-1) ?? '';
  const { exits, reversals } = reversalsAndExits(history);
  return {
    reportDate,
    publishedReportDate,
    newSignals: recentlyQualified(history).newToday.map((r) => ({
      ticker: r.ticker,
      cScore: r.cScore,
      direction: r.cScore > 0 ? ('bullish' as const) : ('bearish' as const),
    })),
    exits: exits.filter((e) => e.date === reportDate),
    reversals: reversals.filter((r) => r.date === reportDate),
  };
}

/** A problem as one line: `file (row 4, column "C-Score"): message`. */
export function problemLine(problem: FileProblem): string {
  const where = [problem.row !== undefined ? `row ${problem.row}` : '', problem.column ? `column "${problem.column}"` : ''].filter(Boolean).join(', ');
  return `${problem.file}${where ? ` (${where})` : ''}: ${problem.message}`;
}

/** A byte count as the limits' messages write it, rounded up so a file just over a limit reads over it: `25 MB`, `25.1 MB`. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : (Math.ceil(mb * 10) / 10).toFixed(1)} MB`;
}
