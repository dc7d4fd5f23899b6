/**
 * The daily job's progress: the time of each stage for the summary, and what a person watching sees. On a terminal
 * a line redrawn in place shows the stage, a bar with counts for pages and share images, and the time left; in a
 * log (not a TTY) each stage prints one line with its duration when it ends.
 */
import type { PublishStage } from '../lib/domain/operator/operator';

/** The stages of the daily job, in order (docs/data-flow.md). */
export const DAILY_STAGES = ['pull', 'fundamentals', 'prices', 'parse', 'site data', 'pages and images', 'static api', 'compress', 'smoke check', 'swap', 'publish command', 'alerts'] as const;

/** A stage of the daily job. */
export type DailyStage = (typeof DAILY_STAGES)[number];

/** The upload page's coarser stage (PUBLISH_STAGES) that each stage of the job belongs to. */
export const PUBLISH_STAGE_OF: Record<DailyStage, PublishStage> = {
  pull: 'pull',
  fundamentals: 'pull',
  prices: 'pull',
  parse: 'parse',
  'site data': 'build',
  'pages and images': 'build',
  'static api': 'build',
  compress: 'smoke',
  'smoke check': 'smoke',
  swap: 'swap',
  'publish command': 'swap',
  alerts: 'swap',
};

/** What a stage counts while it runs. */
export type ProgressItem = 'pages' | 'images';

/** One finished stage: its name and seconds. */
export interface StageTime {
  stage: DailyStage;
  seconds: number;
}

/** The job's progress: stages start in order; work inside a stage is counted. */
export interface Progress {
  /** Starts `stage`, ending the one before. */
  stage(stage: DailyStage): void;
  /** `done` of `total` items of the current stage (total null: not known yet). */
  count(item: ProgressItem, done: number, total: number | null): void;
  /** Ends the current stage and returns every stage's time, in order. */
  finish(): StageTime[];
}

/** Where progress goes: a terminal (redrawn in place) or a log (a line per stage), or nowhere. */
export interface ProgressOutput {
  tty: boolean;
  write(text: string): void;
  /** Terminal width, for the bar. */
  columns?: number;
}

const BAR_WIDTH = 24;
const ITEMS: readonly ProgressItem[] = ['pages', 'images'];
const REDRAW_MS = 100;

/** "12 s", "3 min 05 s". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** The bar of `done` of `total`: '[#####-----]'. */
export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total <= 0 ? width : Math.min(width, Math.round((done / total) * width));
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** The summary's line of stage times: "pull 0.2 s, parse 5.1 s, ...". */
export function formatStageTimes(stages: readonly StageTime[]): string {
  return stages.map((s) => `${s.stage} ${formatDuration(s.seconds)}`).join(', ');
}

function inOrder<T>(counts: Map<ProgressItem, T>): [ProgressItem, T][] {
  return ITEMS.flatMap((item) => (counts.has(item) ? [[item, counts.get(item)!] as [ProgressItem, T]] : []));
}

/**
 * A Progress that times the stages and shows them on `output` (null: timing only); `onStage` hears each stage as
 * it starts (the upload page follows the job through it).
 */
export function createProgress(
  output: ProgressOutput | null,
  { clock = () => performance.now(), onStage = () => undefined }: { clock?: () => number; onStage?: (stage: DailyStage) => void } = {},
): Progress {
  const times: StageTime[] = [];
  let current: { stage: DailyStage; started: number; counts: Map<ProgressItem, { done: number; total: number | null }> } | null = null;
  let drawnAt = 0;
  let drawn = false;

  const line = (): string => {
    if (!current) return '';
    const elapsed = (clock() - current.started) / 1000;
    const parts: string[] = [];
    // The time left is that of the slowest count: the stage ends when all of them do.
    let left = 0;
    for (const [item, { done, total }] of inOrder(current.counts)) {
      if (total === null || total === 0) {
        parts.push(`${item} ${done}`);
        continue;
      }
      parts.push(`${item} ${progressBar(done, total)} ${done}/${total}`);
      if (done > 0 && done < total) left = Math.max(left, (elapsed / done) * (total - done));
    }
    const tail = left > 0 ? `, ${formatDuration(left)} left` : '';
    const text = `${current.stage}: ${parts.join('  ')}${parts.length ? '  ' : ''}${formatDuration(elapsed)}${tail}`;
    return output?.columns ? text.slice(0, output.columns - 1) : text;
  };
  const draw = (force: boolean) => {
    if (!output?.tty || !current) return;
    const now = clock();
    if (!force && now - drawnAt < REDRAW_MS) return;
    drawnAt = now;
    drawn = true;
    output.write(`\r\x1b[2K${line()}`);
  };
  const end = () => {
    if (!current) return;
    const seconds = (clock() - current.started) / 1000;
    times.push({ stage: current.stage, seconds });
    if (output) {
      const counted = inOrder(current.counts).map(([item, { done }]) => `${done} ${item}`).join(', ');
      const text = `stage ${current.stage}: ${formatDuration(seconds)}${counted ? ` (${counted})` : ''}`;
      output.write(output.tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
    }
    drawn = false;
    current = null;
  };
  return {
    stage(stage) {
      end();
      current = { stage, started: clock(), counts: new Map() };
      onStage(stage);
      draw(true);
    },
    count(item, done, total) {
      if (!current) return;
      current.counts.set(item, { done, total: total === null ? null : Math.max(total, done) });
      draw(done === total);
    },
    finish() {
      end();
      if (drawn && output?.tty) output.write('\n');
      return times;
    },
  };
}
