/**
 * /compare's first paint (src/lib/domain/signals/compare-chart.ts): the drawing of the very lines the library is
 * given, in its layout: one step a day across all stocks, the score on the -110..110 axis with the spec's ticks and
 * thresholds, the rebased price with 100 marked.
 */
import { describe, expect, it } from 'vitest';
import { COMPARE_PRICE_MARGINS, COMPARE_SCORE_MARGIN, COMPARE_TAG_HEIGHT, COMPARE_VIEWBOX, compareDays, compareGeometry, comparePaneHeights } from '../../src/lib/domain/signals/compare-chart';
import { rebaseTo100 } from '../../src/lib/domain/signals/compare';

const scoreFraction = (score: number) => COMPARE_SCORE_MARGIN + ((110 - score) / 220) * (1 - 2 * COMPARE_SCORE_MARGIN);

describe('compareGeometry', () => {
  const a = {
    ticker: 'AAPL',
    scores: [
      { date: '2026-11-18', value: 70 },
      { date: '2026-11-19', value: 0 },
      { date: '2026-11-20', value: -65 },
    ],
    closes: rebaseTo100(
      [
        { date: '2026-11-18', value: 200 },
        { date: '2026-11-19', value: 210 },
        { date: '2026-11-20', value: 190 },
      ],
      '2026-11-18',
    ),
  };
  const b = { ticker: 'MSFT', scores: [{ date: '2026-11-20', value: 100 }], closes: [] };

  it('puts one step a day over the union of the stocks days, ascending, each day once (as the library spaces bars)', () => {
    expect(compareDays([b, a])).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
  });

  it('draws each stock score on the -110..110 axis and its rebased price, in the order given', () => {
    const g = compareGeometry([a, b]);
    expect(g.lines.map((l) => l.ticker)).toEqual(['AAPL', 'MSFT']);
    const y = (score: number) => Math.round(scoreFraction(score) * COMPARE_VIEWBOX);
    // Three days: x at 0, 500 and 1000 units; the path is relative moves from the first point.
    expect(g.lines[0]!.score).toBe(`M0,${y(70)}l500,${y(0) - y(70)} 500,${y(-65) - y(0)}`);
    // A stock with one day sits on the last day's step.
    expect(g.lines[1]!.score).toBe(`M1000,${y(100)}`);
    expect(g.lines[1]!.price).toBe('');
    // Prices 100, 105, 95: the highest at the top margin, the lowest at the bottom margin.
    expect([COMPARE_PRICE_MARGINS.top * COMPARE_VIEWBOX, (1 - COMPARE_PRICE_MARGINS.bottom) * COMPARE_VIEWBOX]).toEqual([200, 900]);
    expect(g.lines[0]!.price).toBe('M0,550l500-350 500,700');
    expect(g.priceBase).toBeCloseTo(0.2 + 0.7 * 0.5, 6);
  });

  it('labels the score scale at -100, -65, 0, 65 and 100 with 0 solid and the thresholds dashed', () => {
    const g = compareGeometry([a]);
    expect(g.scoreTicks.map((t) => t.label)).toEqual(['-100', '-65', '0', '65', '100']);
    expect(g.references.map((r) => [r.value, r.dashed, r.tone])).toEqual([
      [0, false, 'neutral'],
      [65, true, 'bullish'],
      [-65, true, 'bearish'],
    ]);
    expect(g.scoreTicks[2]!.at).toBeCloseTo(0.5, 6);
  });

  it('labels the price scale with round steps inside the prices, and the time axis with the first, middle and last day', () => {
    const g = compareGeometry([a]);
    expect(g.priceTicks.map((t) => t.label)).toEqual(['95', '100', '105']);
    expect(g.timeTicks).toEqual([
      { label: 'Nov 18', at: 0 },
      { label: 'Nov 19', at: 0.5 },
      { label: 'Nov 20', at: 1 },
    ]);
  });

  it("labels each line on its pane's scale with its ticker and latest value, labels moved apart where they would overlap", () => {
    const close = { ticker: 'NVDA', scores: [{ date: '2026-11-20', value: -66 }], closes: [] };
    const g = compareGeometry([a, b, close]);
    expect(g.tags.map((t) => [t.pane, t.text])).toEqual([
      ['score', 'AAPL \u221265.00'],
      ['score', 'MSFT 100.00'],
      ['score', 'NVDA \u221266.00'],
      ['price', 'AAPL 95.00'],
    ]);
    const { score } = comparePaneHeights();
    const [aapl, , nvda] = g.tags;
    // -65 and -66 sit 1 px apart on the axis: their labels are a label's height apart.
    expect(Math.abs(nvda!.at - aapl!.at) * score).toBeCloseTo(COMPARE_TAG_HEIGHT, 6);
    expect(g.tags[1]!.at).toBeCloseTo(scoreFraction(100), 6);
  });

  it('draws nothing and labels no price with no line', () => {
    const g = compareGeometry([]);
    expect(g.lines).toEqual([]);
    expect(g.priceTicks).toEqual([]);
    expect(g.priceBase).toBeNull();
    expect(g.timeTicks).toEqual([]);
    expect(g.tags).toEqual([]);
  });
});
