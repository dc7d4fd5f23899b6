/** Section 3, Lighthouse: the `lighthouse` package driving the system Chromium, mobile preset, median of N runs. */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS } from './browser';
import { type BenchContext, type Budget, type Figure, type FigureInput, figure, median, round } from './figures';
import type { BenchPage } from './pages';

/** The figures of one Lighthouse run. */
interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpSeconds: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's own warnings, e.g. that the page never went network-quiet. */
  warnings: string[];
}

type Metric = Exclude<keyof LighthouseRun, 'warnings'>;

// Lighthouse's default is 45 s: a page with a request that never finishes would cost that on every run.
const MAX_WAIT_FOR_LOAD_MS = 10_000;

const METRICS: { key: Metric; name: string; unit: string; decimals: number }[] = [
  { key: 'performance', name: 'performance', unit: 'score', decimals: 0 },
  { key: 'accessibility', name: 'accessibility', unit: 'score', decimals: 0 },
  { key: 'bestPractices', name: 'best practices', unit: 'score', decimals: 0 },
  { key: 'seo', name: 'SEO', unit: 'score', decimals: 0 },
  { key: 'lcpSeconds', name: 'LCP', unit: 's', decimals: 2 },
  { key: 'tbtMs', name: 'TBT', unit: 'ms', decimals: 0 },
  { key: 'cls', name: 'CLS', unit: '', decimals: 3 },
];

const TICKER_BUDGETS: Partial<Record<Metric, Budget>> = {
  performance: { op: '>=', limit: 98 },
  accessibility: { op: '>=', limit: 100 },
  bestPractices: { op: '>=', limit: 95 },
  seo: { op: '>=', limit: 100 },
  lcpSeconds: { op: '<=', limit: 1.0 },
  tbtMs: { op: '<=', limit: 100 },
  cls: { op: '<=', limit: 0 },
};
const PAGE_BUDGETS: Partial<Record<Metric, Budget>> = {
  performance: { op: '>=', limit: 98 },
  accessibility: { op: '>=', limit: 100 },
};

/** Lighthouse mobile 100 on /, a stock page, the heatmap, a list (/all-signals), the screener and /compare, with accessibility 100. */
/** /compare with five stocks, for Lighthouse only: one HTML file answers every address, so the weight section skips it. */
export const COMPARE_BENCH_PAGE: BenchPage = { label: '/compare (5 stocks)', path: '/compare?t=AAPL,MSFT,NVDA,AMZN,GOOGL', kind: 'compare' };

const FULL_MARKS = new Set(['/', '/heatmap', '/all-signals', '/screener', COMPARE_BENCH_PAGE.path]);
const FULL_PERFORMANCE: Budget = { op: '>=', limit: 100 };

function budgetsFor(page: BenchPage): Partial<Record<Metric, Budget>> {
  if (page.kind === 'ticker') return { ...TICKER_BUDGETS, performance: FULL_PERFORMANCE };
  if (page.kind === 'permalink' || page.kind === 'hub') return { ...PAGE_BUDGETS, performance: FULL_PERFORMANCE };
  // /, /heatmap and /archives have had Lighthouse budgets longest; three pages are held to 100.
  return FULL_MARKS.has(page.path) ? { ...PAGE_BUDGETS, performance: FULL_PERFORMANCE } : PAGE_BUDGETS;
}

const ALL_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
// Accessibility, best practices and SEO read the DOM and headers, not timings: the first run measures them, and
// the later runs skip them (axe alone takes seconds on a long table).
const TIMED_CATEGORIES = ['performance'];
const UNTIMED: Metric[] = ['accessibility', 'bestPractices', 'seo'];

async function runOnce(url: string, port: number, categories: string[]): Promise<LighthouseRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: categories,
    maxWaitForLoad: MAX_WAIT_FOR_LOAD_MS,
    // Unscored work that costs a navigation or a screenshot per run; the scores are the same without it.
    skipAudits: ['bf-cache', 'screenshot-thumbnails', 'final-screenshot'],
    disableFullPageScreenshot: true,
  });
  if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}.`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpSeconds: numeric('largest-contentful-paint') / 1000,
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    warnings: lhr.runWarnings,
  };
}

/** How the section measures, once for the table's header. */
export const LIGHTHOUSE_NOTE =
  'The `lighthouse` package (programmatic) driving the system Chromium (headless, launched once by chrome-launcher), its default mobile config: simulated slow 4G and 4x CPU slowdown, Moto G Power screen; it waits at most 10 s from navigation for the page to go quiet (its default is 45 s) and skips the unscored bf-cache and screenshot audits. Each page is run 3 times: performance, LCP, TBT and CLS come from the run with the median performance score, and the method column lists them for every run; accessibility, best practices and SEO do not depend on timing, so only the first run measures them (axe alone takes seconds on a long table). Simulated throttling scales the CPU time observed on this machine, so load from other work raises TBT and lowers performance.';

/** Runs Lighthouse `runs` times per page (mobile default config) and reports the run with the median performance. */
export async function lighthouseSection(ctx: BenchContext, origin: string, pages: BenchPage[]): Promise<Figure[]> {
  const runs = ctx.quick ? 1 : 3;
  const figures: Figure[] = [];
  const add = (input: FigureInput) => figures.push(figure('lighthouse', input));
  // A page that is not there yet or did not load: one row saying why, plus its budgeted figures as misses.
  const addMissing = (page: BenchPage, missing: string) => {
    add({ name: `${page.label}: page`, value: null, unit: '', method: `GET ${page.path}`, missing });
    const budgets = budgetsFor(page);
    for (const metric of METRICS) {
      const budget = budgets[metric.key];
      if (budget !== undefined) add({ name: `${page.label}: ${metric.name}`, value: null, unit: metric.unit, budget, method: 'Lighthouse', missing });
    }
  };
  const chrome = await chromeLauncher.launch({ chromePath: ctx.chromiumPath, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  try {
    for (const page of [...pages, COMPARE_BENCH_PAGE]) {
      const url = origin + page.path;
      const budgets = budgetsFor(page);
      const status = (await fetch(url)).status;
      if (status !== 200) {
        ctx.log(`  ${page.label}: ${status}, skipped`);
        addMissing(page, `not available (${status})`);
        continue;
      }
      const results: LighthouseRun[] = [];
      try {
        for (let i = 0; i < runs; i++) results.push(await runOnce(url, chrome.port, i === 0 ? ALL_CATEGORIES : TIMED_CATEGORIES));
      } catch (error) {
        const message = (error as Error).message.split('\n')[0]!;
        ctx.log(`  ${page.label}: ${message}`);
        addMissing(page, `not available (${message})`);
        continue;
      }
      const mid = median(results.map((r) => r.performance));
      const first = results[0]!;
      const chosen = { ...(results.find((r) => r.performance === mid) ?? first) };
      for (const key of UNTIMED) chosen[key] = first[key];
      ctx.log(`  ${page.label}: performance ${results.map((r) => r.performance).join(', ')}`);
      const warnings = [...new Set(results.flatMap((r) => r.warnings))];
      if (warnings.length > 0) {
        ctx.log(`    Lighthouse warned: ${warnings.join(' ')}`);
        add({ name: `${page.label}: Lighthouse warnings`, value: warnings.length, unit: '', method: warnings.join(' ') });
      }
      for (const metric of METRICS) {
        const all = UNTIMED.includes(metric.key) ? null : results.map((r) => round(r[metric.key], metric.decimals)).join(', ');
        add({
          name: `${page.label}: ${metric.name}`,
          value: round(chosen[metric.key], metric.decimals),
          unit: metric.unit,
          budget: budgets[metric.key],
          method: all === null ? 'first run' : runs > 1 ? `runs: ${all}` : '1 run (--quick)',
        });
      }
    }
  } finally {
    chrome.kill();
  }
  return figures;
}
