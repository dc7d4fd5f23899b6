/** Spec "formatting": every score on the stock page's cards shows 2 decimals, and exactly 100 and -100 show none. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HistoryCard, MetricsCard, ScoreCard } from '../../src/islands/detail/cards';
import { signalRecord } from '../fixtures/records';

const record = signalRecord('AAPL', {
  cScore: 100,
  yesterdayCScore: 99.5,
  marketScore: -100,
  deltaScore: 3.5,
  accuracyScore: 100,
  relevanceScore: 12.345,
  avgCScoreL7D: 100,
  avgCScoreL14D: -65.2,
});
const text = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element).replace(/<[^>]+>/g, ' ');

describe('the stock page cards', () => {
  it('show the C-Score, Market and Delta Scores with the one score formatter', () => {
    const card = text(createElement(ScoreCard, { record, idPrefix: 'dt' }));
    expect(card).toMatch(/ 100 /);
    expect(card).toContain(' -100 ');
    expect(card).toContain(' 3.50 ');
    expect(card).not.toMatch(/100\.00/);
  });

  it('show the 7- and 14-day averages and the metrics with 2 decimals, 100 and -100 with none', () => {
    const history = text(createElement(HistoryCard, { record, idPrefix: 'dt' }));
    expect(history).toContain(' 100 ');
    expect(history).toContain(' -65.20 ');
    expect(history).not.toContain('100.00');
    const metrics = text(createElement(MetricsCard, { record, idPrefix: 'dt' }));
    expect(metrics).toContain(' 3.50 ');
    expect(metrics).toContain(' 12.35 ');
    expect(metrics).not.toContain('100.00');
  });
});
