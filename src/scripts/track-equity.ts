/**
 * The model portfolio's equity curve on /track-record: once its box scrolls into view, loads lightweight-charts
 * (a dynamic import: never in the page's JavaScript before then) and the curve's points from the static JSON, and
 * draws the portfolio (solid) against the benchmark (dashed). The file's schema (and zod with it) loads then too, so
 * the page's load evaluates no schema.
 */
import { staticJson } from '../lib/client/static-files';

/** Draws the curve into `box` from the points of `src`. */
async function draw(box: HTMLElement, status: HTMLElement | null): Promise<void> {
  const [charts, body] = await Promise.all([import('lightweight-charts'), staticJson(box.dataset.src!, () => import('../lib/domain/track-record/portfolio').then((m) => m.EquityCurveFileSchema))]);
  const points = body.portfolio?.points ?? [];
  if (points.length === 0) throw new Error('the track record holds no portfolio yet');
  const style = getComputedStyle(document.documentElement);
  const colour = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  status?.remove();
  const chart = charts.createChart(box, {
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: colour('--muted', '#6b7280'), fontSize: 12, attributionLogo: false },
    grid: { vertLines: { color: colour('--line', '#e5e7eb') }, horzLines: { color: colour('--line', '#e5e7eb') } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false },
  });
  const portfolio = chart.addSeries(charts.LineSeries, { color: colour('--accent', '#2563eb'), lineWidth: 2, title: 'Portfolio', priceFormat: { type: 'price', precision: 3, minMove: 0.001 } });
  portfolio.setData(points.map((p) => ({ time: p.date, value: p.equity })));
  const bench = points.filter((p) => p.benchmark !== null);
  if (bench.length > 0) {
    const line = chart.addSeries(charts.LineSeries, { color: colour('--muted', '#6b7280'), lineWidth: 2, lineStyle: charts.LineStyle.Dashed, title: box.dataset.benchmark || 'Benchmark', priceFormat: { type: 'price', precision: 3, minMove: 0.001 } });
    line.setData(bench.map((p) => ({ time: p.date, value: p.benchmark! })));
  }
  chart.timeScale().fitContent();
  box.dataset.drawn = 'true';
}

/** Watches the page's equity box and draws it the first time it is in view. */
export function mountEquityCurve(root: Document): void {
  const box = root.querySelector<HTMLElement>('[data-equity-chart]');
  if (!box) return;
  const status = box.querySelector<HTMLElement>('[data-equity-status]');
  const observer = new IntersectionObserver((seen) => {
    if (!seen.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    if (status) status.textContent = 'Loading the chart…';
    draw(box, status).catch((error: Error) => {
      if (status) status.textContent = `The chart could not be drawn (${error.message}); the figures above stand.`;
    });
  });
  observer.observe(box);
}
