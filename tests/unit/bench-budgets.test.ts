/**
 * The bench's load budgets are ratios to the bare node:http reference of the same run: a slower host of the same kind
 * moves the budget with the figures, a slower route misses. The inputs are a slow host and a fast one of the same kind.
 */
import { describe, expect, it } from 'vitest';
import { LOAD_BUDGETS } from '../../scripts/bench/api';
import { figure } from '../../scripts/bench/figures';
import { judgeRelative, type Reference, referenceTimeMs } from '../../scripts/bench/reference';
import { formatRow, missLines, referenceLine } from '../../scripts/bench/report';

function reference(requestsPerSecond: number, p99Ms = 1.3): Reference {
  return { requestsPerSecond, p99Ms, tool: 'wrk (1 thread)', connections: 50, seconds: 10, warmUpSeconds: 2, bodyBytes: 127 };
}

const slowHost = reference(29_800, 3.1);
const committedHost = reference(82_996, 1.29);

describe('judging a throughput budget against the reference', () => {
  it('passes 10.5k req/s on a 29.8k host against 0.30 (10.5 / 29.8 = 0.352), where an absolute 20,000 req/s failed', () => {
    const verdict = judgeRelative(10_500, { of: 'throughput', op: '>=', ratio: 0.3 }, slowHost);
    expect(verdict.ratio).toBeCloseTo(0.3523, 4);
    expect(verdict.limit).toBeCloseTo(8940, 6);
    expect(verdict.pass).toBe(true);
  });

  it('fails the same 10.5k req/s against 0.40 on that host, and 15,000 req/s on the committed host against the quote budget', () => {
    expect(judgeRelative(10_500, { of: 'throughput', op: '>=', ratio: 0.4 }, slowHost).pass).toBe(false);
    // A slower route on the fast host still misses the quote's share.
    const regressed = judgeRelative(15_000, LOAD_BUDGETS.quote.rps, committedHost);
    expect(regressed.ratio).toBeCloseTo(0.1807, 4);
    expect(regressed.pass).toBe(false);
    expect(judgeRelative(22_748, LOAD_BUDGETS.quote.rps, committedHost).pass).toBe(true);
  });

  it('judges on the ratio exactly at the boundary', () => {
    expect(judgeRelative(5960, LOAD_BUDGETS.quote.rps, slowHost).pass).toBe(true);
    expect(judgeRelative(5959, LOAD_BUDGETS.quote.rps, slowHost).pass).toBe(false);
  });

  it('fails a figure that could not be measured, and any figure when the reference could not be', () => {
    expect(judgeRelative(null, LOAD_BUDGETS.quote.rps, slowHost)).toEqual({ ratio: null, limit: 5960, pass: false });
    expect(judgeRelative(10_500, LOAD_BUDGETS.quote.rps, null)).toEqual({ ratio: null, limit: null, pass: false });
  });
});

describe('judging a latency budget against the reference time per request', () => {
  it('is connections over the reference req/s: 50 / 29,800 = 1.68 ms', () => {
    expect(referenceTimeMs(slowHost)).toBeCloseTo(1.6779, 4);
  });

  it('passes the quote at 8 ms p99 on the slow host (4.8 x) and fails 7 ms p99 on the committed host (11.6 x) against 10 x', () => {
    const slow = judgeRelative(8, LOAD_BUDGETS.quote.p99, slowHost);
    expect(slow.ratio).toBeCloseTo(4.768, 3);
    expect(slow.pass).toBe(true);
    const fast = judgeRelative(7, LOAD_BUDGETS.quote.p99, committedHost);
    expect(fast.ratio).toBeCloseTo(11.62, 2);
    expect(fast.pass).toBe(false);
  });

  it('keeps a strict budget strict: the stored analysis at exactly 35 x misses "< 35 x"', () => {
    expect(judgeRelative(35 * referenceTimeMs(slowHost), LOAD_BUDGETS.storedAnalysis.p99, slowHost).pass).toBe(false);
  });
});

describe('a row of RESULTS.md with a relative budget', () => {
  it('shows the req/s, the ratio, the budget as a ratio with its req/s on this host, and passes on the ratio', () => {
    const row = figure('api', { name: 'cached live /api/stock-price/AAPL: requests/s', value: 10_500, unit: 'req/s', relative: { budget: LOAD_BUDGETS.quote.rps, reference: slowHost }, method: 'wrk (1 thread), 50 connections, 10 s' });
    expect(row.pass).toBe(true);
    expect(row.budget).toEqual({ op: '>=', limit: 5960 });
    expect(formatRow(row)).toBe('| cached live /api/stock-price/AAPL: requests/s | 10,500 req/s = 0.352 × ref | ≥ 0.2 × ref (5,960 req/s here) | pass | wrk (1 thread), 50 connections, 10 s |');
  });

  it('marks a miss and lists it with both figures', () => {
    const row = figure('api', { name: '/api/auth/user with a valid session (SQLite): requests/s', value: 900, unit: 'req/s', relative: { budget: LOAD_BUDGETS.session.rps, reference: slowHost }, method: 'wrk' });
    expect(formatRow(row)).toBe('| /api/auth/user with a valid session (SQLite): requests/s | 900 req/s = 0.03 × ref | ≥ 0.035 × ref (1,043 req/s here) | **FAIL** | wrk |');
    expect(missLines([row])).toEqual(['api: /api/auth/user with a valid session (SQLite): requests/s: 900 req/s = 0.03 × ref (budget ≥ 0.035 × ref (1,043 req/s here))']);
  });

  it('shows a latency row against the reference time', () => {
    const row = figure('api', { name: 'cached live /api/stock-price/AAPL: p99 latency', value: 4.09, unit: 'ms', relative: { budget: LOAD_BUDGETS.quote.p99, reference: committedHost }, method: 'wrk' });
    expect(formatRow(row)).toBe('| cached live /api/stock-price/AAPL: p99 latency | 4.09 ms = 6.79 × ref time | ≤ 10 × ref time (6.02 ms here) | pass | wrk |');
  });

  it('says when there is no reference, and fails the row', () => {
    const row = figure('api', { name: 'static JSON /api/stock/AAPL: requests/s', value: 18_180, unit: 'req/s', relative: { budget: LOAD_BUDGETS.staticJson.rps, reference: null }, method: 'wrk' });
    expect(formatRow(row)).toBe('| static JSON /api/stock/AAPL: requests/s | 18,180 req/s | ≥ 0.12 × ref (no reference) | **FAIL** | wrk |');
  });

  it('puts the reference req/s, p99 and wrk settings in the header line', () => {
    expect(referenceLine(slowHost)).toContain('bare node:http 29,800 req/s, p99 3.1 ms (wrk (1 thread), 50 connections, a 2 s warm-up then 10 s, a 127-byte JSON answer)');
    expect(referenceLine(null)).toMatch(/not measured/);
  });
});
