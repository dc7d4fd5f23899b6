/**
 * The comparison's chart: each stock's C-Score in the upper pane and its price rebased to 100 in the lower one, on
 * one time scale. lightweight-charts loads on the first draw (a dynamic import), never with the page. Each line is
 * labelled with its ticker on the price scale and drawn in its own style, so colour is never the only difference.
 */
import { useEffect, useRef, useState } from 'react';
import type { LineStyle as LineStyleValue, Time } from 'lightweight-charts';
import type { CompareStyle, DatedValue } from '../../lib/domain/signals/compare';
import { BEARISH_THRESHOLD, BULLISH_THRESHOLD } from '../../lib/domain/signals/signal';
import { TREND_Y_DOMAIN } from '../../lib/domain/trend/trend';
import { formatScore } from '../../lib/domain/text/format';
import { dateLabels } from '../../lib/domain/trend/chart-series';

/** One stock's lines. */
export interface ChartLine {
  ticker: string;
  style: CompareStyle;
  scores: DatedValue[];
  /** Closes already rebased to 100. */
  closes: DatedValue[];
}

const HEIGHT = 420;

function summary(lines: readonly ChartLine[]): string {
  if (lines.length === 0) return 'No lines to draw.';
  return lines
    .map((l) => {
      const score = l.scores.at(-1);
      const price = l.closes.at(-1);
      return `${l.ticker}: C-Score ${score ? formatScore(score.value) : 'none'}${price ? `, price ${price.value.toFixed(1)} (100 on the first day)` : ', no prices'}`;
    })
    .join('; ');
}

export default function CompareChart({ lines, ready, demo }: { lines: ChartLine[]; ready: boolean; demo: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<'idle' | 'drawn' | 'failed'>('idle');

  useEffect(() => {
    if (!ready || !box.current) return;
    let disposed = false;
    let remove: (() => void) | null = null;
    const container = box.current;
    void import('lightweight-charts')
      .then(({ createChart, LineSeries, LineStyle }) => {
        if (disposed) return;
        const text = getComputedStyle(container).color;
        // The data's times are yyyy-mm-dd strings, which the library hands back as given.
        const labels = dateLabels((time: Time) => String(time));
        const chart = createChart(container, {
          height: HEIGHT,
          autoSize: true,
          layout: { background: { color: 'transparent' }, textColor: text, attributionLogo: false, panes: { separatorColor: 'rgba(128,128,128,0.4)' } },
          grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
          timeScale: { borderVisible: false, tickMarkFormatter: labels.tickMarkFormatter },
          rightPriceScale: { borderVisible: false },
          localization: { locale: 'en-US', timeFormatter: labels.timeFormatter },
        });
        for (const line of lines) {
          const base = { color: line.style.color, lineStyle: line.style.lineStyle as LineStyleValue, lineWidth: 2 as const, title: line.ticker, priceLineVisible: false };
          const score = chart.addSeries(LineSeries, { ...base, autoscaleInfoProvider: () => ({ priceRange: { minValue: TREND_Y_DOMAIN[0], maxValue: TREND_Y_DOMAIN[1] } }) }, 0);
          score.setData(line.scores.map((p) => ({ time: p.date, value: p.value })));
          // The fixed -110..110 range fills the pane: no margin above or below it.
          score.priceScale().applyOptions({ scaleMargins: { top: 0.02, bottom: 0.02 } });
          if (line === lines[0]) {
            score.createPriceLine({ price: 0, color: 'rgba(128,128,128,0.8)', lineWidth: 1, lineStyle: LineStyle.Solid, axisLabelVisible: false, title: '' });
            score.createPriceLine({ price: BULLISH_THRESHOLD, color: '#16a34a', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
            score.createPriceLine({ price: BEARISH_THRESHOLD, color: '#dc2626', lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' });
          }
          const price = chart.addSeries(LineSeries, base, 1);
          price.setData(line.closes.map((p) => ({ time: p.date, value: p.value })));
        }
        chart.panes()[0]?.setStretchFactor(0.55);
        chart.panes()[1]?.setStretchFactor(0.45);
        chart.timeScale().fitContent();
        remove = () => chart.remove();
        setDrawn('drawn');
      })
      .catch(() => {
        if (!disposed) setDrawn('failed');
      });
    return () => {
      disposed = true;
      remove?.();
      setDrawn('idle');
    };
  }, [lines.map((l) => `${l.ticker}:${l.scores.length}:${l.closes.length}`).join('|'), ready]);

  return (
    <figure className="cmp-figure">
      <div className="cmp-panes-labels text-xs muted" aria-hidden="true">
        <span>C-Score (−110 to 110; dashed at +{BULLISH_THRESHOLD} and {BEARISH_THRESHOLD})</span>
      </div>
      <div className="cmp-chart" style={{ height: HEIGHT }} role="img" aria-label={`Chart of C-Score and price rebased to 100. ${summary(lines)}`} data-testid="compare-chart" data-state={drawn === 'drawn' ? 'drawn' : ready ? drawn : 'loading'} data-lines={lines.length}>
        {!ready && <p className="muted p-4">Loading the comparison...</p>}
        {/* The library's own markup (a layout table of canvases) is hidden: the label above and the table below speak for it. */}
        <div ref={box} aria-hidden="true" style={{ height: ready ? HEIGHT : 0, contain: ready ? 'strict' : undefined }} />
      </div>
      <figcaption className="text-xs muted mt-1">{demo && <span className="badge badge-neutral">Demo prices</span>} Upper pane: each stock's C-Score. Lower pane: its daily close, rebased to 100 on the first day shown. {drawn === 'failed' && 'The chart could not be drawn; the table below has every figure.'}</figcaption>
    </figure>
  );
}
