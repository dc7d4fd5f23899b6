import { describe, expect, it } from 'vitest';
import {
  UNKNOWN_COMPANY,
  displayCompanyName,
  headerCompanyName,
  lookupCompanyName,
  uniqueTickers,
} from '../../src/lib/domain/company-name';

describe('the built-in names answer when no source knows the company', () => {
  it.each([
    ['AAPL', 'Apple Inc.'],
    ['MSFT', 'Microsoft Corporation'],
    ['GOOGL', 'Alphabet Inc.'],
    ['AMZN', 'Amazon.com, Inc.'],
    ['BRK.B', 'Berkshire Hathaway Inc.'],
    ['AMD', 'Advanced Micro Devices, Inc.'],
  ])('%s is %s', (ticker, name) => expect(lookupCompanyName(ticker.toLowerCase(), { cached: null, server: UNKNOWN_COMPANY, provider: ' ' })).toBe(name));
});

describe('lookupCompanyName: cache, server, provider, built-in map, then Unknown Company', () => {
  it.each([
    { ticker: 'AAPL', sources: { cached: 'Cached Apple', server: 'Server Apple', provider: 'Provider Apple' }, name: 'Cached Apple' },
    { ticker: 'AAPL', sources: { cached: null, server: 'Server Apple', provider: 'Provider Apple' }, name: 'Server Apple' },
    { ticker: 'AAPL', sources: { cached: '  ', server: '', provider: 'Provider Apple' }, name: 'Provider Apple' },
    { ticker: 'AAPL', sources: {}, name: 'Apple Inc.' },
    { ticker: 'aapl', sources: { server: UNKNOWN_COMPANY }, name: 'Apple Inc.' },
    { ticker: 'ZZZZ', sources: { provider: '  Zeta Corp  ' }, name: 'Zeta Corp' },
    { ticker: 'ZZZZ', sources: {}, name: 'Unknown Company' },
    { ticker: '', sources: {}, name: 'Unknown Company' },
  ])('$ticker with $sources -> $name', ({ ticker, sources, name }) => {
    expect(lookupCompanyName(ticker, sources)).toBe(name);
  });
});

describe('displayCompanyName: Unknown Company shows nothing', () => {
  it.each([
    ['Unknown Company', ''],
    ['', ''],
    ['   ', ''],
    [null, ''],
    [undefined, ''],
    [' Apple Inc. ', 'Apple Inc.'],
  ])('%o -> %o', (name, shown) => expect(displayCompanyName(name)).toBe(shown));
});

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
