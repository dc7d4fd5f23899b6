/** The bench's outputs: results.json for machines, RESULTS.md for people, and the list of misses. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { type Budget, type Figure, type RelativeFigure, round, SECTIONS, type SectionName } from './figures';
import { type Reference, referenceTimeMs } from './reference';

/** The machine a run measured. */
export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  chromium: string;
  kernel: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  loadAtStart: number;
}

/** Everything one run found. */
export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  quick: boolean;
  sections: SectionName[];
  machine: Machine;
  /** The bare node:http reference measured at the start; null when it could not be measured. */
  reference: Reference | null;
  figures: Figure[];
  /** How each section measures, printed under its heading. */
  notes: Record<SectionName, string>;
  /** Sections that could not run, with the reason. */
  failedSections: { section: SectionName; error: string }[];
}

/** Describes this machine (nproc, memory, Node and Chromium versions). */
export function describeMachine(chromiumPath: string): Machine {
  let chromium = 'unknown';
  try {
    chromium = execFileSync(chromiumPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    chromium = `not runnable at ${chromiumPath}`;
  }
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    chromium,
    kernel: release(),
    loadAtStart: Math.round(loadavg()[0]! * 100) / 100,
  };
}

/** The figures that miss their budget (a budget whose figure could not be measured is a miss too). */
function misses(figures: Figure[]): Figure[] {
  return figures.filter((f) => f.pass === false);
}

const OPS: Record<Budget['op'], string> = { '<=': '≤', '<': '<', '>=': '≥', '=': '=' };

function withUnit(value: number, unit: string, decimals = 3): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: decimals })}${unit && unit !== 'score' ? ` ${unit}` : ''}`;
}

/** What a relative budget's ratio is of: the reference's req/s, or its time per request. */
function yardstickName(relative: RelativeFigure): string {
  return relative.of === 'throughput' ? 'ref' : 'ref time';
}

/** A figure's budget as the table shows it; a relative one as its ratio, then its equivalent on this host. */
export function showBudget(f: Pick<Figure, 'budget' | 'unit' | 'relative'>): string {
  const relative = f.relative;
  if (relative) {
    const here = f.budget === null ? 'no reference' : `${withUnit(f.budget.limit, f.unit, relative.of === 'throughput' ? 0 : 2)} here`;
    return `${OPS[relative.op]} ${relative.ratio} × ${yardstickName(relative)} (${here})`;
  }
  if (f.budget === null) return '-';
  return `${OPS[f.budget.op]} ${withUnit(f.budget.limit, f.unit)}`;
}

/** A figure's value as the table shows it; with a relative budget, also its ratio to the reference. */
export function showValue(f: Pick<Figure, 'value' | 'unit' | 'missing' | 'relative'>): string {
  if (f.value === null) return f.missing ?? 'not measured';
  const shown = withUnit(f.value, f.unit);
  const relative = f.relative;
  if (!relative || relative.measured === null) return shown;
  return `${shown} = ${relative.measured.toLocaleString('en-US', { maximumFractionDigits: relative.of === 'throughput' ? 3 : 2 })} × ${yardstickName(relative)}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const TITLES: Record<SectionName, string> = {
  build: '1. Build scaling (daily job: ingest + static build)',
  weight: '2. Page weight (before any interaction; KB = 1,024 bytes)',
  lighthouse: '3. Lighthouse (mobile, median of 3 by performance score)',
  api: '4. API throughput (loopback)',
  client: '5. Client work (list table in Chromium)',
  screener: '5b. Screener (a screen in Chromium at 4x CPU slowdown; the server-rendered answer under load)',
  limits: '6. Export limits (the intake at and past the default limits)',
  history: '7. History at scale (long archives: fresh, then one new day)',
  deploy: '8. Deploy (nginx in front of Node, two processes sharing Redis)',
  alerts: '9. Alerts (the digest of one report: composed, queued and sent)',
  ai: '10. AI (a stored analysis, /ai-analysis, tokens a day from the fake model server)',
  track: '11. Track record (ledger and aggregates at scale)',
};

/** One line per miss: figure, value and budget. */
export function missLines(figures: Figure[]): string[] {
  return misses(figures).map((f) => `${f.section}: ${f.name}: ${showValue(f)} (budget ${showBudget(f)})`);
}

/** One row of a section's table: figure, value, budget, verdict, method. */
export function formatRow(f: Figure): string {
  const pass = f.pass === null ? '-' : f.pass ? 'pass' : '**FAIL**';
  return `| ${cell(f.name)} | ${cell(showValue(f))} | ${cell(showBudget(f))} | ${pass} | ${cell(f.method)} |`;
}

/** The reference for the header and the console: req/s, p99 and how it was loaded. */
export function describeReference(reference: Reference): string {
  return (
    `bare node:http ${Math.round(reference.requestsPerSecond).toLocaleString('en-US')} req/s, p99 ${round(reference.p99Ms, 2)} ms ` +
    `(${reference.tool}, ${reference.connections} connections, a ${reference.warmUpSeconds} s warm-up then ${reference.seconds} s, a ${reference.bodyBytes}-byte JSON answer); ` +
    `time per request at ${reference.connections} connections ${round(referenceTimeMs(reference), 2)} ms`
  );
}

/** The header's reference line: what the relative budgets of this run divide by. */
export function referenceLine(reference: Reference | null): string {
  if (reference === null) return 'Reference: not measured, so every budget stated against it misses in this run.';
  return (
    `Reference (the yardstick of the load budgets, measured once at the start of this run): ${describeReference(reference)}. ` +
    'A throughput budget is a share of the reference\'s req/s ("× ref"); a latency budget under load is a multiple of its time per request ("× ref time"); ' +
    'each is judged on that ratio, and its equivalent on this host is shown beside it.'
  );
}

/** RESULTS.md: a header with the run and the machine, the misses, then a table per section. */
export function toMarkdown(results: BenchResults): string {
  const m = results.machine;
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\`${results.quick ? ' --quick' : ''}. Run started ${results.startedAt}, took ${Math.round(results.durationSeconds)} s.`,
    '',
    `Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Linux ${m.kernel}, Node ${m.node}, ${m.chromium}; load average ${m.loadAtStart} at the start (other work on the machine skews the figures).`,
    '',
    referenceLine(results.reference),
    '',
  ];
  const missed = missLines(results.figures);
  lines.push(`## Misses (${missed.length})`, '');
  if (missed.length === 0) lines.push('Every figure meets its budget.');
  for (const line of missed) lines.push(`- ${line}`);
  for (const failed of results.failedSections) lines.push(`- ${failed.section}: the section could not run: ${failed.error.split('\n')[0]}`);
  lines.push('');
  for (const section of SECTIONS) {
    if (!results.sections.includes(section)) continue;
    lines.push(`## ${TITLES[section]}`, '', results.notes[section], '');
    const failed = results.failedSections.find((f) => f.section === section);
    if (failed) lines.push(`The section could not run: ${cell(failed.error.split('\n')[0]!)}`, '');
    const rows = results.figures.filter((f) => f.section === section);
    if (rows.length === 0) continue;
    lines.push('| figure | value | budget | pass | how measured |', '|---|---:|---:|:---:|---|');
    for (const f of rows) lines.push(formatRow(f));
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
