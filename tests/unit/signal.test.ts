import { describe, expect, it } from 'vitest';
import {
  classifySignal,
  isQualified,
  signalDirection,
  trendDirection,
} from '../../src/lib/domain/signals/signal';

describe.each([
  { score: 100, badge: 'Bullish', direction: 'bullish', qualified: true },
  { score: 65, badge: 'Bullish', direction: 'bullish', qualified: true },
  { score: 64.99, badge: 'Neutral', direction: 'neutral', qualified: false },
  { score: 0, badge: 'Neutral', direction: 'neutral', qualified: false },
  { score: -64.99, badge: 'Neutral', direction: 'neutral', qualified: false },
  { score: -65, badge: 'Bearish', direction: 'bearish', qualified: true },
  { score: -100, badge: 'Bearish', direction: 'bearish', qualified: true },
  { score: null, badge: 'Neutral', direction: 'neutral', qualified: false },
  { score: undefined, badge: 'Neutral', direction: 'neutral', qualified: false },
  { score: Number.NaN, badge: 'Neutral', direction: 'neutral', qualified: false },
])('C-Score $score', ({ score, badge, direction, qualified }) => {
  it(`is ${badge}`, () => expect(classifySignal(score)).toBe(badge));
  it(`has direction ${direction}`, () => expect(signalDirection(score)).toBe(direction));
  it(`is ${qualified ? '' : 'not '}qualified`, () => expect(isQualified(score)).toBe(qualified));
});

describe('trendDirection (today vs yesterday)', () => {
  it.each([
    { today: 72.4, yesterday: 70.1, arrow: 'up' },
    { today: -70, yesterday: -68, arrow: 'down' },
    { today: 12.5, yesterday: 12.5, arrow: 'flat' },
    { today: 0.01, yesterday: 0, arrow: 'up' },
    { today: 50, yesterday: null, arrow: 'flat' },
    { today: undefined, yesterday: 50, arrow: 'flat' },
    { today: Number.NaN, yesterday: 50, arrow: 'flat' },
  ])('$today vs $yesterday is $arrow', ({ today, yesterday, arrow }) => {
    expect(trendDirection(today, yesterday)).toBe(arrow);
  });
});
