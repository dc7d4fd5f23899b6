/** The published track record (ledger CSV, list prices, the API shapes, Dataset JSON-LD) from hand-made data. */
import { describe, expect, it } from 'vitest';
import { listCloseDate, listCloseHeading, listPriceCell } from '../../src/lib/domain/signals/list-price';
import { ledgerCells, thirtyDayOutcome, viewOf, viewsFromCsv } from '../../src/lib/domain/track-record/ledger-view';
import {
  datasetJsonLd,
  DEMO_PRICES_LABEL,
  LEDGER_CSV_COLUMNS,
  ledgerCsv,
  ledgerCsvChunks,
  listPrices,
  publicTrack,
  temporalCoverage,
  tickerTrackJson,
  trackRecordApi,
  trackReport,
  type TrackData,
} from '../../src/lib/domain/track-record/track-data';

// Jan 2 to Jan 12, 2026: seven trading days.
const DAYS = ['2026-01-02', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-12'];
const TRACK: TrackData = {
  prices: 'demo',
  days: DAYS,
  // XOM stops trading after Jan 7.
  closes: { AAPL: [100, 100, 101, 102, 103, 104, 110], XOM: [50, 50, 49, 48, null, null, null] },
  entries: [
    { ticker: 'AAPL', date: '2026-01-05', direction: 'bullish', cScore: 70.5, exitDate: '2026-01-08' },
    { ticker: 'XOM', date: '2026-01-05', direction: 'bearish', cScore: -80, exitDate: null },
  ],
};

describe('the ledger CSV', () => {
  const report = trackReport(TRACK, () => 'Energy');

  it('has its stable columns, one row per signal, returns in the signal\'s direction', () => {
    const lines = ledgerCsv(report).trim().split('\r\n');
    expect(lines[0]).toBe(LEDGER_CSV_COLUMNS.join(','));
    expect(LEDGER_CSV_COLUMNS).toEqual([
      'ticker', 'report_date', 'direction', 'c_score', 'entry_close',
      'close_5d', 'close_5d_date', 'return_5d', 'status_5d',
      'close_30d', 'close_30d_date', 'return_30d', 'status_30d',
      'close_90d', 'close_90d_date', 'return_90d', 'status_90d',
      'exit_date', 'exit_return', 'prices',
      'excess_5d', 'excess_30d', 'excess_90d',
    ]);
    expect(lines).toHaveLength(3);
    // AAPL entered at 100 on Jan 5; five trading days on is Jan 12 at 110: +10%, a hit; exited Jan 8 at 103.
    expect(lines[1]).toBe('AAPL,2026-01-05,bullish,70.50,100.00,110.00,2026-01-12,0.100000,hit,110.00,2026-01-12,0.100000,open,110.00,2026-01-12,0.100000,open,2026-01-08,0.030000,demo,,,');
    // XOM entered at 50 and stopped trading at 48: +4% for the bearish signal, marked, never dropped.
    expect(lines[2]).toBe('XOM,2026-01-05,bearish,-80.00,50.00,48.00,2026-01-07,0.040000,stopped-hit,48.00,2026-01-07,0.040000,stopped-hit,48.00,2026-01-07,0.040000,stopped-hit,,,demo,,,');
  });

  it('is written a chunk at a time: the header once, then 250 rows a chunk, the same text as made at once', () => {
    const many = { ...report, ledger: Array.from({ length: 1_100 }, (_, i) => report.ledger[i % 2]!) };
    const chunks = [...ledgerCsvChunks(many)];
    expect(chunks.map((chunk) => chunk.split('\r\n').length - 1)).toEqual([1, 250, 250, 250, 250, 100]);
    const lines = chunks.join('').trim().split('\r\n');
    expect(lines).toHaveLength(1_101);
    expect(lines.filter((line) => line === LEDGER_CSV_COLUMNS.join(','))).toHaveLength(1);
    expect(lines[1_100]).toBe(ledgerCsv(report).trim().split('\r\n')[2]);
  });

  it('the page\'s table shows the same cells from a measured row and from its CSV row (the script loads the CSV)', () => {
    const fromCsv = viewsFromCsv(ledgerCsv(report));
    expect(fromCsv.map(ledgerCells)).toEqual(report.ledger.map((row) => ledgerCells(viewOf(row))));
    expect(ledgerCells(fromCsv[0]!).map((c) => (c.note ? `${c.text} ${c.note}` : c.text))).toEqual([
      '2026-01-05', 'AAPL', 'Bullish', '70.50', '$100.00', '+10.00% hit', '+10.00% open', '+10.00% open', '2026-01-08', '+3.00%',
    ]);
    expect(fromCsv.map(thirtyDayOutcome)).toEqual(['open', 'hit']);
  });

  it('the API answers: the aggregates with the demo label, and a ticker\'s ledger with its own figures', () => {
    const api = trackRecordApi(report);
    expect(api).toMatchObject({ prices: 'demo', pricesLabel: DEMO_PRICES_LABEL, asOf: '2026-01-12', signals: 2, horizons: [5, 30, 90], csv: '/track-record.csv' });
    expect(api.directions.bullish.horizons[0]).toMatchObject({ resolved: 1, hits: 1, hitRate: 1 });
    const aapl = JSON.parse(tickerTrackJson(report, report.ledger.filter((r) => r.ticker === 'AAPL'), 'AAPL'));
    expect(aapl).toMatchObject({ ticker: 'AAPL', signals: 1, pricesLabel: DEMO_PRICES_LABEL });
    expect(aapl.ledger[0]).toMatchObject({ date: '2026-01-05', entryClose: 100, exitDate: '2026-01-08' });
    expect(aapl.bullish.horizons[0]).toMatchObject({ hitRate: 1 });
  });
});

describe('the list prices', () => {
  it('the last close on or before the report date and its change from the close before', () => {
    const prices = listPrices(TRACK, '2026-01-09', ['AAPL', 'XOM', 'KO']);
    expect(prices.get('AAPL')).toMatchObject({ date: '2026-01-09', close: 104 });
    expect(prices.get('AAPL')!.change).toBeCloseTo(104 / 103 - 1, 10);
    // XOM's last close is Jan 7's; KO has no closes at all.
    expect(prices.get('XOM')).toMatchObject({ date: '2026-01-07', close: 48 });
    expect(prices.has('KO')).toBe(false);
  });

  it('a cell says the close, the signed change, "demo" under the demo provider, and its day when older than the column\'s', () => {
    expect(listPriceCell({ date: '2026-01-09', close: 1234.5, change: 0.0123 }, 'demo', '2026-01-09')).toEqual({
      close: '$1,234.50',
      change: '+1.23%',
      demo: true,
      sortValue: '1234.5',
      date: null,
      title: null,
    });
    expect(listPriceCell({ date: '2026-01-09', close: 9, change: -0.5 }, 'polygon', '2026-01-09')).toMatchObject({ change: '-50.00%', demo: false });
    // A stock without a close on the column's day shows its last close with that close's day.
    expect(listPriceCell({ date: '2026-01-07', close: 48, change: null }, 'polygon', '2026-01-09')).toMatchObject({ close: '$48.00', date: 'Jan 7', title: 'Close on Jan 7, 2026' });
    expect(listPriceCell(undefined, 'demo', '2026-01-09')).toEqual({ close: '—', change: '', demo: false, sortValue: '', date: null, title: null });
  });

  it("the Close column names the day of the list's newest close", () => {
    const prices = listPrices(TRACK, '2026-01-09', ['AAPL', 'XOM', 'KO']);
    expect(listCloseDate(prices.values())).toBe('2026-01-09');
    expect(listCloseHeading('2026-01-09')).toEqual({ label: 'Close', date: 'Jan 9', title: 'Close on Jan 9, 2026' });
    expect(listCloseDate([])).toBeNull();
    expect(listCloseHeading(null)).toEqual({ label: 'Close', date: null, title: 'Last close' });
  });
});

describe('what is published', () => {
  it('with PAYWALL=on a locked top ticker\'s entry of the latest report waits for the next report', () => {
    const latest: TrackData = { ...TRACK, entries: [...TRACK.entries, { ticker: 'NVDA', date: '2026-01-12', direction: 'bullish', cScore: 95, exitDate: null }] };
    expect(publicTrack(latest, new Set(['NVDA']), '2026-01-12').entries.map((e) => e.ticker)).toEqual(['AAPL', 'XOM']);
    expect(publicTrack(latest, new Set(), '2026-01-13').entries).toHaveLength(3);
  });

  it('a locked top ticker\'s entry still open, or closed by the latest report, waits too: "still qualified" or the exit says its direction', () => {
    const open = { ticker: 'NVDA', date: '2026-01-05', direction: 'bullish' as const, cScore: 93.08, exitDate: null };
    const closedToday = { ...open, date: '2026-01-06', exitDate: '2026-01-12' };
    const closedBefore = { ...open, date: '2026-01-02', exitDate: '2026-01-07' };
    const track: TrackData = { ...TRACK, entries: [...TRACK.entries, open, closedToday, closedBefore] };
    const shown = publicTrack(track, new Set(['NVDA']), '2026-01-12').entries.filter((e) => e.ticker === 'NVDA');
    expect(shown).toEqual([closedBefore]);
    // Pro (no locked tickers) sees all three.
    expect(publicTrack(track, new Set(), '2026-01-12').entries.filter((e) => e.ticker === 'NVDA')).toHaveLength(3);
  });

  it('Dataset JSON-LD names the coverage, the licence and the downloads', () => {
    const ld = datasetJsonLd({
      name: 'C-Score Signals track record',
      description: 'Every signal.',
      url: 'https://signals.example/track-record',
      siteName: 'C-Score Signals',
      siteUrl: 'https://signals.example/',
      temporalCoverage: temporalCoverage('2026-01-05', '2026-01-12'),
      isAccessibleForFree: true,
      distributions: [{ url: 'https://signals.example/track-record.csv', format: 'text/csv', name: 'Signal ledger (CSV)' }],
    });
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Dataset',
      temporalCoverage: '2026-01-05/2026-01-12',
      distribution: [{ '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: 'https://signals.example/track-record.csv' }],
    });
    expect(ld.license).toMatch(/^The signal files and the track record may be downloaded/);
    expect(temporalCoverage('2026-01-05', '2026-01-05')).toBe('2026-01-05');
    expect(temporalCoverage(null, null)).toBeNull();
  });
});
