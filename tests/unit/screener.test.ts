import { describe, expect, it } from 'vitest';
import {
  missingText,
  parseScreen,
  runScreen,
  SCREEN_PRESETS,
  screenRows,
  screenToQuery,
  SCREEN_CSV_HEADER,
  screenCsvRow,
  type ScreenRow,
} from '../../src/lib/domain/signals/screener';
import { toCsv } from '../../src/lib/domain/text/csv';
import { screenFormHtml } from '../../src/lib/domain/signals/screener-page';
import { toBrowserCsv } from '../../src/scripts/screener/csv';
import type { SignalHistory, SignalRecord } from '../../src/lib/domain/report/schemas';

function row(ticker: string, over: Partial<ScreenRow>): ScreenRow {
  return {
    ticker, company: `${ticker} Inc`, sector: 'Energy', industry: 'Oil & Gas Drilling',
    cscore: 0, change: 0, delta: 0, market: 0, accuracy: 50, relevance: 50, avg7: 0, avg14: 0, days7: 0, days14: 0,
    mcap: 10, pe: 20, top: false, new: false, reversed: false, since: 0, ...over,
  };
}

/** A fixed report of eight stocks. */
const REPORT: ScreenRow[] = [
  row('AAA', { cscore: 92.5, change: 18, delta: 40, days7: 7, days14: 12, top: true, new: true, since: 1, avg7: 80, mcap: 2500, pe: 31 }),
  row('BBB', { cscore: 70, change: 3, sector: 'Information Technology', industry: 'Semiconductors', days7: 7, since: 9, avg7: 71, mcap: null, pe: 55 }),
  row('CCC', { cscore: 65, change: 15, sector: 'Information Technology', industry: 'Application Software', new: true, since: 1, mcap: 40, pe: null }),
  row('DDD', { cscore: 10, change: -12, market: -30, mcap: null, pe: null }),
  row('EEE', { cscore: -64.99, change: -20, sector: 'Utilities', industry: 'Electric Utilities', mcap: 12 }),
  row('FFF', { cscore: -65, change: -30, sector: 'Utilities', industry: 'Electric Utilities', reversed: true, since: 2, days7: 3 }),
  row('GGG', { cscore: -98.07, change: -1, sector: 'Health Care', industry: 'Biotechnology', top: true, since: 14, days7: 7, mcap: 1, pe: 8 }),
  row('HHH', { cscore: 65, change: 0, accuracy: 90, relevance: 10, avg14: 66, days14: 14, reversed: true, since: 3 }),
];

function tickers(query: string, watched: ReadonlySet<string> | null = null): string[] {
  return runScreen(REPORT, parseScreen(query).screen, watched).order.map((i) => REPORT[i]!.ticker);
}

describe('the screener query grammar', () => {
  it('reads every range key, open on either side', () => {
    const keys = ['cscore', 'change', 'delta', 'market', 'accuracy', 'relevance', 'avg7', 'avg14', 'days7', 'days14', 'mcap', 'pe'];
    for (const key of keys) {
      expect(parseScreen(`${key}=65..`)).toEqual({ screen: expect.objectContaining({ ranges: { [key]: { min: 65, max: null } } }), errors: [] });
      expect(parseScreen(`${key}=..-10`).screen.ranges).toEqual({ [key]: { min: null, max: -10 } });
      expect(parseScreen(`${key}=-20.5..+7`).screen.ranges).toEqual({ [key]: { min: -20.5, max: 7 } });
      expect(parseScreen(`${key}=..`)).toEqual({ screen: expect.objectContaining({ ranges: {} }), errors: [] });
    }
  });

  it('reads signal, sector, industry, the flags, since and sort', () => {
    const { screen, errors } = parseScreen('signal=bullish&sector=Energy&sector=Utilities&industry=Biotechnology&top=1&new=1&watched=1&reversed=1&since=3&sort=-change');
    expect(errors).toEqual([]);
    expect(screen).toEqual({
      ranges: {}, signals: ['bullish'], sectors: ['Energy', 'Utilities'], industries: ['Biotechnology'],
      flags: { top: true, new: true, watched: true, reversed: true }, since: 3, sort: { key: 'change', order: 'desc' },
    });
    expect(parseScreen('sort=cscore').screen.sort).toEqual({ key: 'cscore', order: 'asc' });
    expect(parseScreen('top=0').screen.flags).toEqual({});
  });

  it('names every bad value and runs the rest', () => {
    const { screen, errors } = parseScreen('cscore=abc..&change=20..10&delta=5&signal=up&since=0&sort=price&top=yes&color=red&sector=Energy');
    expect(errors.map((e) => e.message)).toEqual([
      'cscore: "abc" is not a number',
      'change: the minimum 20 is above the maximum 10',
      'delta: "5" is not a range; write min..max, either side may be empty (delta=10.. or delta=..-10)',
      'signal: "up" is not bullish, bearish or neutral',
      'since: "0" is not a whole number of reports (1 or more)',
      expect.stringMatching(/^sort: "price" is not a column; use one of ticker, cscore, change/),
      'top: "yes" is not 1 (on) or 0 (off)',
      'color: not a screener key',
    ]);
    expect(screen.sectors).toEqual(['Energy']);
    expect(screen.ranges).toEqual({});
  });

  it('takes the first of a repeated single key and names it; repeated sectors and signals are any of them', () => {
    const parsed = parseScreen('cscore=50..&cscore=..0&signal=bullish&signal=bearish&signal=bullish');
    expect(parsed.screen.ranges).toEqual({ cscore: { min: 50, max: null } });
    expect(parsed.screen.signals).toEqual(['bullish', 'bearish']);
    expect(parsed.errors).toEqual([{ key: 'cscore', message: 'cscore: given more than once; the first value counts' }]);
  });

  it('ignores the empty fields a form sends', () => {
    expect(parseScreen('cscore=&signal=&sector=&since=&sort=')).toEqual({ screen: { ranges: {}, signals: [], sectors: [], industries: [], flags: {}, since: null, sort: null }, errors: [] });
  });

  it('writes a screen back as the same query, in a fixed order', () => {
    const query = 'cscore=65..&pe=..25&signal=bearish&sector=Energy&sector=Health+Care&top=1&since=2&sort=-avg7';
    expect(screenToQuery(parseScreen(query).screen)).toBe(query);
    expect(screenToQuery(parseScreen('sort=-avg7&pe=..25&since=2&cscore=65..').screen)).toBe('cscore=65..&pe=..25&since=2&sort=-avg7');
  });
});

describe('runScreen on a fixed report', () => {
  const cases: [string, string[]][] = [
    ['', ['AAA', 'BBB', 'CCC', 'HHH', 'DDD', 'EEE', 'FFF', 'GGG']],
    ['cscore=65..', ['AAA', 'BBB', 'CCC', 'HHH']],
    ['cscore=..-65', ['FFF', 'GGG']],
    ['signal=bearish', ['FFF', 'GGG']],
    ['signal=neutral', ['DDD', 'EEE']],
    ['signal=bullish&signal=bearish&sort=ticker', ['AAA', 'BBB', 'CCC', 'FFF', 'GGG', 'HHH']],
    ['change=15..', ['AAA', 'CCC']],
    ['change=..-10&sort=change', ['FFF', 'EEE', 'DDD']],
    ['delta=1..', ['AAA']],
    ['market=..-1', ['DDD']],
    ['accuracy=60..', ['HHH']],
    ['relevance=..20', ['HHH']],
    ['avg7=70..', ['AAA', 'BBB']],
    ['avg14=60..', ['HHH']],
    ['days7=7..', ['AAA', 'BBB', 'GGG']],
    ['days14=12..&sort=-days14', ['HHH', 'AAA']],
    ['mcap=10..', ['AAA', 'CCC', 'HHH', 'EEE', 'FFF']],
    ['pe=..30&sort=pe', ['GGG', 'HHH', 'EEE', 'FFF']],
    ['sector=Information+Technology', ['BBB', 'CCC']],
    ['sector=Utilities&sector=Health+Care', ['EEE', 'FFF', 'GGG']],
    ['industry=Semiconductors&industry=Biotechnology', ['BBB', 'GGG']],
    ['top=1', ['AAA', 'GGG']],
    ['new=1', ['AAA', 'CCC']],
    ['reversed=1', ['HHH', 'FFF']],
    ['since=3', ['BBB', 'HHH', 'GGG']],
    ['sort=-ticker&signal=bearish', ['GGG', 'FFF']],
    ['sort=mcap', ['GGG', 'HHH', 'FFF', 'EEE', 'CCC', 'AAA', 'BBB', 'DDD']],
    // A bad part is left out and the rest runs.
    ['cscore=oops..&signal=bearish&colour=red', ['FFF', 'GGG']],
  ];
  it.each(cases)('%s', (query, expected) => {
    expect(tickers(query)).toEqual(expected);
  });

  it('applies watched only with the watchlist; the server leaves it to the page', () => {
    expect(tickers('watched=1&signal=bearish', new Set(['GGG']))).toEqual(['GGG']);
    expect(tickers('watched=1&signal=bearish', null)).toEqual(['FFF', 'GGG']);
  });

  it('says how many stocks a bound on a missing figure left out', () => {
    const result = runScreen(REPORT, parseScreen('mcap=1..&pe=1..').screen);
    expect(result.missing).toEqual({ mcap: 2, pe: 2 });
    expect(missingText(result.missing)).toBe('Excluded for lack of the figure: 2 stocks without a market cap; 2 stocks without a P/E.');
    // DDD lacks both and fails no other bound: it counts under each; a stock failing a bound it has is not counted.
    expect(runScreen(REPORT, parseScreen('mcap=1..&cscore=50..').screen).missing).toEqual({ mcap: 1 });
    expect(missingText({})).toBe('');
  });

  it('every preset is a valid query', () => {
    for (const preset of SCREEN_PRESETS) expect(parseScreen(preset.query).errors).toEqual([]);
    expect(tickers(SCREEN_PRESETS[0]!.query)).toEqual(['AAA', 'CCC']);
    expect(tickers(SCREEN_PRESETS[1]!.query)).toEqual(['GGG', 'FFF']);
    expect(tickers(SCREEN_PRESETS[2]!.query)).toEqual(['AAA', 'CCC']);
  });
});

describe('screenRows', () => {
  const record = (ticker: string, cScore: number, yesterdayCScore: number): SignalRecord => ({
    ticker, companyName: ticker, cScore, yesterdayCScore, reportDate: '2026-01-05', isTopTicker: false, deltaScore: 1, accuracyScore: 2,
    marketScore: 3, relevanceScore: 4, avgCScoreL7D: 5, avgCScoreL14D: 6, countL7DWithSignal: 7, countL14DWithSignal: 8, sector: 'Energy', subIndustry: 'Coal',
  });
  it('derives change, new, reversed, the qualified streak and the fundamentals', () => {
    const history: SignalHistory = {
      dates: ['2026-01-01', '2026-01-02', '2026-01-05'],
      latest: [record('UP', 80, 50), record('FLIP', -70, 70), record('OLD', 66, 67)],
      scores: { UP: [10, 50, 80], FLIP: [70, 70, -70], OLD: [70, 67, 66] },
    };
    const rows = screenRows(history, { UP: { marketCap: 2_500_000_000, trailingPE: 31.456 } });
    expect(rows.map((r) => [r.ticker, r.change, r.new, r.reversed, r.since, r.mcap, r.pe, r.industry])).toEqual([
      ['UP', 30, true, false, 1, 2.5, 31.46, 'Coal'],
      ['FLIP', -140, false, true, 3, null, null, 'Coal'],
      ['OLD', -1, false, false, 3, null, null, 'Coal'],
    ]);
  });
});

describe('the result as CSV', () => {
  it('has a header and one row per stock; the formula guard applies in the browser as on the server', () => {
    const rows = [[...SCREEN_CSV_HEADER], screenCsvRow(row('EVIL', { company: '=HYPERLINK("http://x.example")', cscore: -70.5, mcap: null }))];
    const csv = toBrowserCsv(rows);
    expect(csv).toBe(toCsv(rows));
    const [header, line] = csv.split('\r\n');
    expect(header).toBe('Ticker,Company,Sector,Sub-industry,Signal,C-Score,Change vs yesterday,Delta,Market,Accuracy,Relevance,7D Avg,14D Avg,Signal days 7D,Signal days 14D,Market cap ($bn),P/E,Top,New in this report,Qualified reports in a row');
    expect(line).toBe(`EVIL,"'=HYPERLINK(""http://x.example"")",Energy,Oil & Gas Drilling,bearish,-70.5,0,0,0,50,50,0,0,0,0,,20,no,no,0`);
  });

  it('names the flag columns as the page names their boxes', () => {
    const form = screenFormHtml(parseScreen('').screen, { sectors: [], industries: [] });
    for (const name of ['top', 'new']) {
      const label = new RegExp(`<input type="checkbox" name="${name}"[^>]*/><span>([^<]+)</span>`).exec(form)?.[1];
      expect(label, name).toBeDefined();
      expect(SCREEN_CSV_HEADER, name).toContain(label);
    }
  });
});
