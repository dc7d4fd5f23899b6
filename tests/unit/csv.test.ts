import { describe, expect, it } from 'vitest';
import { neutralizeCell, toCsv } from '../../src/lib/domain/text/csv';

describe('neutralizeCell and toCsv (formula injection)', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+cmd', "'+cmd"],
    ['-2+3', "'-2+3"],
    ['@SUM(1)', "'@SUM(1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['-40.5', '-40.5'],
    ['+12', '+12'],
    ['1e5', '1e5'],
    ['Apple Inc.', 'Apple Inc.'],
    ['', ''],
  ])('%j -> %j', (cell, expected) => {
    expect(neutralizeCell(cell)).toBe(expected);
  });

  it('quotes cells with commas, quotes or line breaks after neutralizing them, one CRLF after each row', () => {
    expect(toCsv([['AAPL', 'Berkshire Hathaway, Inc.', '=HYPERLINK("x")', 'a\nb', '-1'], ['T', -12.5, '@x', '', 'ok']])).toBe(
      'AAPL,"Berkshire Hathaway, Inc.","\'=HYPERLINK(""x"")","a\nb",-1\r\nT,-12.5,\'@x,,ok\r\n',
    );
  });

  it('ends rows with the line ending asked for', () => {
    expect(toCsv([['a', 'b'], ['c', 'd']], { eol: '\n' })).toBe('a,b\nc,d\n');
  });
});

