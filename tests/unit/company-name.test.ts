import { describe, expect, it } from 'vitest';
import {
  headerCompanyName,
  uniqueTickers,
} from '../../src/lib/domain/signals/company-name';

describe('headerCompanyName: company info, then record, then "{ticker} Corporation"', () => {
  it.each([
    ['AAPL', 'Apple Inc.', 'AAPL Inc.', 'Apple Inc.'],
    ['AAPL', '', 'Apple (record)', 'Apple (record)'],
    ['AAPL', undefined, 'Apple (record)', 'Apple (record)'],
    ['AAPL', 'Unknown Company', 'Apple (record)', 'Apple (record)'],
    ['ZZZZ', null, '  ', 'ZZZZ Corporation'],
    ['ZZZZ', undefined, undefined, 'ZZZZ Corporation'],
  ])('%s, %o, %o -> %s', (ticker, infoName, recordName, header) => {
    expect(headerCompanyName(ticker, infoName, recordName)).toBe(header);
  });
});

describe('uniqueTickers: skip empty, upper-case, de-duplicate, keep order', () => {
  it.each([
    [['aapl', 'MSFT', 'AAPL', ' nvda ', '', '  ', 'msft'], ['AAPL', 'MSFT', 'NVDA']],
    [['brk.b', 'BRK.B'], ['BRK.B']],
    [[], []],
    [['', ' '], []],
  ])('%o -> %o', (tickers, expected) => expect(uniqueTickers(tickers)).toEqual(expected));
});
