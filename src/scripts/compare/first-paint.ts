/**
 * The comparison chart's first paint: an SVG of the lines the library is given, in the library's layout
 * (../../lib/domain/signals/compare-chart), with no library and no canvas. Hidden from screen readers: the chart's
 * label and the table speak for it.
 */
import { COMPARE_AXES, COMPARE_SCORE_PANE_SHARE, COMPARE_VIEWBOX, compareGeometry, type CompareChartLine, type CompareTick } from '../../lib/domain/signals/compare-chart';
import { textColorOn } from '../../lib/domain/site/contrast';
import { CHART_COLORS } from '../../lib/domain/trend/scale';
import { element } from '../dom';

const SVG = 'http://www.w3.org/2000/svg';

const percent = (fraction: number) => `${Number((fraction * 100).toFixed(2))}%`;

/** A line's label on its pane's scale: its ticker and last value, on the line's colour in the text colour that reads on it. */
interface Tag {
  text: string;
  at: number;
  color: string;
}

/** A pane: its reference lines, its paths and its scale's labels. */
function pane(top: string, height: string, ticks: CompareTick[], tags: Tag[], rules: HTMLElement[], paths: SVGPathElement[]): HTMLElement {
  const box = element('div', '', { class: 'cmp-fp-pane' });
  box.style.top = top;
  box.style.height = height;
  const plot = element('div', '', { class: 'cmp-fp-plot' });
  plot.style.right = `${COMPARE_AXES.scale}px`;
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ viewBox: `0 0 ${COMPARE_VIEWBOX} ${COMPARE_VIEWBOX}`, preserveAspectRatio: 'none', width: '100%', height: '100%' })) svg.setAttribute(name, value);
  svg.append(...paths);
  plot.append(...rules, svg);
  box.append(plot);
  for (const t of ticks) {
    const label = element('span', t.label, { class: 'cmp-fp-y' });
    label.style.top = percent(t.at);
    label.style.width = `${COMPARE_AXES.scale}px`;
    box.append(label);
  }
  for (const t of tags) {
    const label = element('span', t.text, { class: 'cmp-fp-tag' });
    label.style.top = percent(t.at);
    label.style.background = t.color;
    label.style.color = textColorOn(t.color);
    box.append(label);
  }
  return box;
}

function path(line: CompareChartLine, d: string, kind: 'score' | 'price'): SVGPathElement {
  const node = document.createElementNS(SVG, 'path');
  node.setAttribute(`data-${kind}`, line.ticker);
  node.setAttribute('d', d);
  node.setAttribute('stroke', line.style.color);
  node.setAttribute('stroke-width', '2');
  if (line.style.dash) node.setAttribute('stroke-dasharray', line.style.dash);
  node.setAttribute('vector-effect', 'non-scaling-stroke');
  node.setAttribute('fill', 'none');
  return node;
}

function rule(y: number, className: string, style: Partial<Pick<CSSStyleDeclaration, 'borderTopStyle' | 'borderColor'>> = {}): HTMLElement {
  const node = element('div', '', { class: className });
  node.style.top = percent(y);
  Object.assign(node.style, style);
  return node;
}

/** The drawing of `lines` (in the address's order), in a box that fills the chart's. */
export function compareFirstPaint(lines: readonly CompareChartLine[]): HTMLElement {
  const geometry = compareGeometry(lines);
  const panes = `(100% - ${COMPARE_AXES.time}px)`;
  const color = new Map(lines.map((l) => [l.ticker, l.style.color]));
  const tags = (which: 'score' | 'price') => geometry.tags.filter((t) => t.pane === which).map((t) => ({ text: t.text, at: t.at, color: color.get(t.ticker)! }));
  const root = element('div', '', { class: 'cmp-fp', 'aria-hidden': 'true', 'data-testid': 'compare-first-paint' });
  root.append(
    pane(
      '0px',
      `calc(${panes} * ${COMPARE_SCORE_PANE_SHARE})`,
      geometry.scoreTicks,
      tags('score'),
      geometry.references.map((r) => rule(r.y, 'cmp-fp-rule', { borderTopStyle: r.dashed ? 'dashed' : 'solid', borderColor: CHART_COLORS[r.tone] })),
      lines.map((line, i) => path(line, geometry.lines[i]!.score, 'score')),
    ),
    pane(
      `calc(${panes} * ${COMPARE_SCORE_PANE_SHARE})`,
      `calc(${panes} * ${Number((1 - COMPARE_SCORE_PANE_SHARE).toFixed(2))})`,
      geometry.priceTicks,
      tags('price'),
      geometry.priceBase === null ? [] : [rule(geometry.priceBase, 'cmp-fp-rule cmp-fp-base')],
      lines.map((line, i) => path(line, geometry.lines[i]!.price, 'price')),
    ),
  );
  const time = element('div', '', { class: 'cmp-fp-time' });
  time.style.height = `${COMPARE_AXES.time}px`;
  time.style.right = `${COMPARE_AXES.scale}px`;
  geometry.timeTicks.forEach((t, k) => {
    const label = element('span', t.label);
    label.style.left = percent(t.at);
    if (k > 0) label.style.transform = k === geometry.timeTicks.length - 1 ? 'translateX(-100%)' : 'translateX(-50%)';
    time.append(label);
  });
  root.append(time);
  return root;
}
