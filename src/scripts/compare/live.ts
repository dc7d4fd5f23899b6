/**
 * The comparison's chart on lightweight-charts: loaded (a dynamic import) only when the library is wanted, with the
 * library and the chart helpers, so the page's load evaluates neither.
 */
import { createChart, LineSeries, LineStyle, type LineStyle as LineStyleValue, type Time } from 'lightweight-charts';
import { COMPARE_AXES, COMPARE_CHART_HEIGHT, COMPARE_PRICE_MARGINS, COMPARE_SCORE_MARGIN, COMPARE_SCORE_PANE_SHARE } from '../../lib/domain/signals/compare-chart';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../../lib/domain/signals/signal';
import { dateLabels } from '../../lib/domain/trend/chart-series';
import { CHART_COLORS, TREND_Y_DOMAIN } from '../../lib/domain/trend/scale';
import type { CompareChartLine as ChartLine } from '../../lib/domain/signals/compare-chart';

/** Draws `lines` into `container` (each stock's score in the upper pane, its rebased price in the lower); returns its removal. */
export function drawCompareChart(container: HTMLElement, lines: readonly ChartLine[]): () => void {
  const text = getComputedStyle(container).color;
  // The data's times are yyyy-mm-dd strings, which the library hands back as given.
  const labels = dateLabels((time: Time) => String(time));
  const chart = createChart(container, {
    height: COMPARE_CHART_HEIGHT,
    autoSize: true,
    layout: { background: { color: 'transparent' }, textColor: text, attributionLogo: false, panes: { separatorColor: 'rgba(128,128,128,0.4)' } },
    grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
    timeScale: { borderVisible: false, tickMarkFormatter: labels.tickMarkFormatter },
    // At least the drawing's scale width, so the lines keep their place when the library takes over.
    rightPriceScale: { borderVisible: false, minimumWidth: COMPARE_AXES.scale },
    localization: { locale: 'en-US', timeFormatter: labels.timeFormatter },
  });
  for (const line of lines) {
    const base = { color: line.style.color, lineStyle: line.style.lineStyle as LineStyleValue, lineWidth: 2 as const, title: line.ticker, priceLineVisible: false };
    const score = chart.addSeries(LineSeries, { ...base, autoscaleInfoProvider: () => ({ priceRange: { minValue: TREND_Y_DOMAIN[0], maxValue: TREND_Y_DOMAIN[1] } }) }, 0);
    score.setData(line.scores.map((p) => ({ time: p.date, value: p.value })));
    // The fixed -110..110 range fills the pane, as in the drawing.
    score.priceScale().applyOptions({ scaleMargins: { top: COMPARE_SCORE_MARGIN, bottom: COMPARE_SCORE_MARGIN } });
    if (line === lines[0]) {
      score.createPriceLine({ price: 0, color: 'rgba(128,128,128,0.8)', lineWidth: 1, lineStyle: LineStyle.Solid, axisLabelVisible: false, title: '' });
      score.createPriceLine({ price: BULLISH_THRESHOLD, color: CHART_COLORS.bullish, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
      score.createPriceLine({ price: BEARISH_THRESHOLD, color: CHART_COLORS.bearish, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
    }
    const price = chart.addSeries(LineSeries, base, 1);
    price.setData(line.closes.map((p) => ({ time: p.date, value: p.value })));
    price.priceScale().applyOptions({ scaleMargins: COMPARE_PRICE_MARGINS });
  }
  chart.panes()[0]?.setStretchFactor(COMPARE_SCORE_PANE_SHARE);
  chart.panes()[1]?.setStretchFactor(1 - COMPARE_SCORE_PANE_SHARE);
  chart.timeScale().fitContent();
  return () => chart.remove();
}
