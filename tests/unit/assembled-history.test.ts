/** The assembled history, made at once or a file at a time, and when a file cannot simply be added. */
import { describe, expect, it } from 'vitest';
import { assembledSizes, assembleHistory, extendHistory, type HashedScores } from '../../src/ingest/history-store';
import { buildHistory } from '../../src/ingest/history';

const file = (name: string, ...dates: [string, [string, number][]][]): HashedScores => ({
  sha256: `sha-${name}`,
  scores: { fileName: name, rows: dates.reduce((sum, [, rows]) => sum + rows.length, 0), dates: dates.map(([date, rows]) => ({ date, tickers: rows.map(([t]) => t), scores: rows.map(([, s]) => s) })) },
});

const mon = file('mon.csv', ['2026-11-23', [['AAPL', 70], ['KO', -10]]]);
const tue = file('tue.csv', ['2026-11-24', [['KO', -66], ['MSFT', 100]]]);
const wed = file('wed.csv', ['2026-11-25', [['MSFT', 99.5], ['AAPL', 65]]]);

describe('the assembled history', () => {
  it('is the same made at once or a file at a time, tickers in order of first appearance', () => {
    const once = assembleHistory([mon, tue, wed]);
    const stepwise = extendHistory(extendHistory(assembleHistory([mon]), [tue])!, [wed])!;
    expect(stepwise).toEqual(once);
    expect(once.tickers).toEqual(['AAPL', 'KO', 'MSFT']);
    expect(once.rows).toBe(6);
    const { history } = buildHistory(once, [], []);
    expect(history.scores).toEqual({ AAPL: [70, null, 65], KO: [-10, -66, null], MSFT: [null, 100, 99.5] });
    expect(assembledSizes(once).get('2026-11-24')).toEqual({ tickers: 2, file: 'tue.csv' });
  });

  it('takes a date in two files from the one archived later, and says so', () => {
    const fixed = file('tue-fixed.csv', ['2026-11-24', [['KO', -70]]]);
    const once = assembleHistory([mon, tue, fixed]);
    expect(once.warnings).toEqual(['2026-11-24 is in tue.csv and tue-fixed.csv: using tue-fixed.csv, archived later.']);
    expect(buildHistory(once, [], []).history.scores).toEqual({ AAPL: [70, null], KO: [-10, -70] });
    expect(assembledSizes(once).get('2026-11-24')).toEqual({ tickers: 1, file: 'tue-fixed.csv' });
  });

  it('cannot simply add a file that holds a date already assembled, or one before the last', () => {
    const base = assembleHistory([mon, tue]);
    expect(extendHistory(base, [file('again.csv', ['2026-11-24', [['KO', 1]]])])).toBeNull();
    expect(extendHistory(base, [file('late.csv', ['2026-11-20', [['KO', 1]]])])).toBeNull();
    expect(extendHistory(base, [wed, file('wed-fixed.csv', ['2026-11-25', [['KO', 1]]])])).toBeNull();
    expect(extendHistory(base, [])).toEqual(base);
  });
});
