import { describe, expect, it } from 'vitest';
import { barsSpan } from '../../src/lib/domain/trend/chart-series';

// The sample's reports: 60 from 2026-08-28 to the latest, 2026-11-20.
const days = { first: '2026-08-28', last: '2026-11-20' };

describe('barsSpan: the bars the chart asks for a range (the stock page asks the default range on the first scroll)', () => {
  it('starts at the range start, or the first score when the range reaches back before it, and ends on the last score', () => {
    expect(barsSpan(days, '2026-11-20', '1M')).toEqual({ from: '2026-10-20', to: '2026-11-20' });
    // 3M from Nov 20 is Aug 20, before the first report.
    expect(barsSpan(days, '2026-11-20', '3M')).toEqual({ from: '2026-08-28', to: '2026-11-20' });
    expect(barsSpan(days, '2026-11-20', 'All')).toEqual({ from: '2026-08-28', to: '2026-11-20' });
  });

  it('counts the range back from the report date, month ends clamped', () => {
    expect(barsSpan({ first: '2026-01-02', last: '2026-05-29' }, '2026-05-31', '3M')).toEqual({ from: '2026-02-28', to: '2026-05-29' });
  });
});
