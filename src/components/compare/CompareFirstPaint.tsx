/**
 * The comparison chart's first paint: an SVG of the lines CompareChart gives the library, in the library's layout
 * (../../lib/domain/signals/compare-chart), with no library and no canvas. Hidden from screen readers: the chart's
 * label and the table speak for it.
 */
import type { Ref } from 'react';
import { COMPARE_AXES, COMPARE_SCORE_PANE_SHARE, COMPARE_VIEWBOX, compareGeometry, type CompareTick } from '../../lib/domain/signals/compare-chart';
import { CHART_COLORS } from '../../lib/domain/trend/scale';
import type { CompareChartLine as ChartLine } from '../../lib/domain/signals/compare-chart';

const percent = (fraction: number) => `${Number((fraction * 100).toFixed(2))}%`;

/** A pane: its reference lines, its lines and its scale's labels. */
function Pane({ top, height, ticks, tags, children, rules }: { top: string; height: string; ticks: CompareTick[]; tags: { text: string; at: number; color: string }[]; children: React.ReactNode; rules: React.ReactNode }) {
  return (
    <div className="cmp-fp-pane" style={{ top, height }}>
      <div className="cmp-fp-plot" style={{ right: COMPARE_AXES.scale }}>
        {rules}
        <svg viewBox={`0 0 ${COMPARE_VIEWBOX} ${COMPARE_VIEWBOX}`} preserveAspectRatio="none" width="100%" height="100%">
          {children}
        </svg>
      </div>
      {ticks.map((t) => (
        <span key={t.label} className="cmp-fp-y" style={{ top: percent(t.at), width: COMPARE_AXES.scale }}>
          {t.label}
        </span>
      ))}
      {tags.map((t) => (
        <span key={t.text} className="cmp-fp-tag" style={{ top: percent(t.at), background: t.color }}>
          {t.text}
        </span>
      ))}
    </div>
  );
}

export default function CompareFirstPaint({ lines, ref }: { lines: ChartLine[]; ref?: Ref<HTMLDivElement> }) {
  const geometry = compareGeometry(lines);
  const panes = `(100% - ${COMPARE_AXES.time}px)`;
  const color = new Map(lines.map((l) => [l.ticker, l.style.color]));
  const tags = (pane: 'score' | 'price') => geometry.tags.filter((t) => t.pane === pane).map((t) => ({ text: t.text, at: t.at, color: color.get(t.ticker)! }));
  const stroke = (line: ChartLine) => ({ stroke: line.style.color, strokeWidth: 2, strokeDasharray: line.style.dash || undefined, vectorEffect: 'non-scaling-stroke' as const, fill: 'none' });
  return (
    <div ref={ref} className="cmp-fp" aria-hidden="true" data-testid="compare-first-paint">
      <Pane
        top="0px"
        height={`calc(${panes} * ${COMPARE_SCORE_PANE_SHARE})`}
        ticks={geometry.scoreTicks}
        tags={tags('score')}
        rules={geometry.references.map((r) => (
          <div key={r.value} className="cmp-fp-rule" style={{ top: percent(r.y), borderTopStyle: r.dashed ? 'dashed' : 'solid', borderColor: CHART_COLORS[r.tone] }} />
        ))}
      >
        {lines.map((line, i) => (
          <path key={line.ticker} data-score={line.ticker} d={geometry.lines[i]!.score} {...stroke(line)} />
        ))}
      </Pane>
      <Pane
        top={`calc(${panes} * ${COMPARE_SCORE_PANE_SHARE})`}
        height={`calc(${panes} * ${Number((1 - COMPARE_SCORE_PANE_SHARE).toFixed(2))})`}
        ticks={geometry.priceTicks}
        tags={tags('price')}
        rules={geometry.priceBase !== null && <div className="cmp-fp-rule cmp-fp-base" style={{ top: percent(geometry.priceBase) }} />}
      >
        {lines.map((line, i) => (
          <path key={line.ticker} data-price={line.ticker} d={geometry.lines[i]!.price} {...stroke(line)} />
        ))}
      </Pane>
      <div className="cmp-fp-time" style={{ height: COMPARE_AXES.time, right: COMPARE_AXES.scale }}>
        {geometry.timeTicks.map((t, k) => (
          <span key={t.label} style={{ left: percent(t.at), transform: k === 0 ? undefined : k === geometry.timeTicks.length - 1 ? 'translateX(-100%)' : 'translateX(-50%)' }}>
            {t.label}
          </span>
        ))}
      </div>
    </div>
  );
}
