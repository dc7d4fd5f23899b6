/**
 * /compare's island: reads `t` from the address, fetches each stock's static JSON (record, trend, track record) and
 * its daily bars, and shows the legend, the chart (./CompareChart, which loads lightweight-charts itself) and the
 * table. Adding or removing a stock rewrites the address, so the view stays shareable.
 */
import { useEffect, useMemo, useState, type SyntheticEvent } from 'react';
import { fetchDailyBars, fetchTrend } from '../../lib/client/api';
import { fetchCompareHitRate, fetchCompareStock } from '../../lib/client/compare';
import { fetchSearchIndex } from '../../lib/client/static-files';
import { PRO_FEATURES } from '../../lib/domain/accounts/entitlements';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import {
  COMPARE_MAX,
  COMPARE_PARAM,
  COMPARE_STYLES,
  compareHref,
  compareRow,
  compareWindow,
  firstSharedDay,
  parseCompareTickers,
  rebaseTo100,
  selectionNotice,
  withoutTicker,
  withTicker,
  type CompareSelection,
  type CompareStyle,
  type DatedValue,
} from '../../lib/domain/signals/compare';
import { COMPARE_HIT_HORIZON } from '../../lib/domain/signals/compare-data';
import { searchTickers, type SearchEntry } from '../../lib/domain/signals/search';
import { formatHitRate } from '../../lib/domain/track-record/track-record';
import { formatDate, formatScore, formatSignedScore } from '../../lib/domain/text/format';
import { openPaywall } from '../../stores/paywall';
import { withErrorBoundary } from '../../islands/ErrorBoundary';
import CompareChart, { type ChartLine } from './CompareChart';

interface Props {
  reportDate: string;
}

/** One stock of the comparison as it loads. */
type Loaded =
  | { state: 'loading' }
  | { state: 'unknown' }
  | { state: 'locked'; companyName: string }
  | { state: 'error'; message: string }
  | { state: 'ready'; record: SignalRecord; scores: DatedValue[]; closes: DatedValue[]; isDemo: boolean; hit: { hitRate: number | null; resolved: number } | null };

async function loadStock(ticker: string, span: { from: string; to: string }): Promise<Loaded> {
  try {
    const stock = await fetchCompareStock(ticker);
    if (stock.kind === 'unknown') return { state: 'unknown' };
    if (stock.kind === 'locked') return { state: 'locked', companyName: stock.companyName };
    const [trend, hit, bars] = await Promise.all([
      fetchTrend(ticker).catch(() => null),
      fetchCompareHitRate(ticker).catch(() => null),
      fetchDailyBars(ticker, span.from, span.to),
    ]);
    const scores = (trend?.trend ?? [])
      .filter((p) => !p.is7DayAvg && !p.is14DayAvg && p.date >= span.from && p.date <= span.to)
      .map((p) => ({ date: p.date, value: Number(p.cScore) }))
      .filter((p) => Number.isFinite(p.value));
    const closes = bars.bars.map((b) => ({ date: new Date(b.t).toISOString().slice(0, 10), value: b.c }));
    return { state: 'ready', record: stock.record, scores, closes, isDemo: bars.isDemo, hit };
  } catch (error) {
    return { state: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

function Marker({ style }: { style: CompareStyle }) {
  return (
    <span className="cmp-marker" aria-hidden="true">
      <svg width="28" height="10" viewBox="0 0 28 10">
        <line x1="1" y1="5" x2="27" y2="5" stroke={style.color} strokeWidth="2.5" strokeDasharray={style.dash || undefined} />
      </svg>
      <span style={{ color: style.color }}>{style.marker}</span>
    </span>
  );
}

function CompareView({ reportDate }: Props) {
  const [selection, setSelection] = useState<CompareSelection | null>(null);
  const [index, setIndex] = useState<SearchEntry[] | null>(null);
  const [loaded, setLoaded] = useState<Record<string, Loaded>>({});
  const [query, setQuery] = useState('');
  const span = useMemo(() => compareWindow(reportDate, new Date().toISOString().slice(0, 10)), [reportDate]);

  useEffect(() => {
    setSelection(parseCompareTickers(new URLSearchParams(location.search).get(COMPARE_PARAM)));
  }, []);

  const tickers = selection?.tickers ?? [];
  useEffect(() => {
    for (const ticker of tickers) {
      if (loaded[ticker]) continue;
      setLoaded((l) => ({ ...l, [ticker]: { state: 'loading' } }));
      void loadStock(ticker, span).then((result) => setLoaded((l) => ({ ...l, [ticker]: result })));
    }
  }, [tickers.join(',')]);

  const change = (next: string[]) => {
    setSelection((s) => ({ tickers: next, malformed: s?.malformed ?? [], dropped: [] }));
    history.replaceState(history.state, '', compareHref(next));
    setQuery('');
  };

  // The search index loads when the search box is first used: the comparison itself never needs it.
  const loadIndex = () => {
    if (index === null) fetchSearchIndex().then(setIndex, () => setIndex([]));
  };
  const names = useMemo(() => new Map((index ?? []).map(([t, name]) => [t, name])), [index]);
  const unknown = tickers.filter((t) => loaded[t]?.state === 'unknown');
  const notice = selection ? selectionNotice(selection, unknown) : null;
  const shown = tickers.map((ticker, i) => ({ ticker, style: COMPARE_STYLES[i]!, data: loaded[ticker] ?? { state: 'loading' as const } }));
  const ready = shown.filter((s) => s.data.state === 'ready');
  const allSettled = selection !== null && shown.every((s) => s.data.state !== 'loading');
  const lines: ChartLine[] = ready.map((s) => {
    const d = s.data as Extract<Loaded, { state: 'ready' }>;
    return { ticker: s.ticker, style: s.style, scores: d.scores, closes: d.closes };
  });
  // Every line's price starts at 100 on the first day all of them have a close.
  const firstDay = firstSharedDay(lines.map((l) => l.closes.filter((c) => c.date >= span.from))) ?? span.from;
  const rebased = lines.map((l) => ({ ...l, closes: rebaseTo100(l.closes, firstDay) }));
  const isDemo = ready.some((s) => (s.data as Extract<Loaded, { state: 'ready' }>).isDemo);
  const matchesIn = (list: readonly SearchEntry[]) => (query.trim() !== '' ? searchTickers(list, query).filter(([t]) => !tickers.includes(t)) : []);
  const matches = index ? matchesIn(index) : [];
  const nameOf = (ticker: string, data: Loaded) => (data.state === 'ready' ? data.record.companyName : data.state === 'locked' ? data.companyName : (names.get(ticker) ?? ''));

  // Enter adds the first match, also when it comes before the index has loaded.
  const onSubmit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const list = index ?? (await fetchSearchIndex().catch(() => []));
    if (index === null) setIndex(list);
    const first = matchesIn(list)[0];
    if (first) change(withTicker(tickers, first[0]));
  };

  return (
    <div className="cmp" data-testid="compare" data-state={allSettled ? 'ready' : 'loading'}>
      {/* The chart's box has a fixed height and comes first: what loads after it grows below it, never above. */}
      <section aria-labelledby="cmp-chart" className="card">
        <h2 id="cmp-chart" className="card-title">
          C-Score and price, {formatDate(span.from)} to {formatDate(span.to)}
        </h2>
        {allSettled && lines.length === 0 ? (
          <p className="muted" data-testid="compare-chart-empty">
            {tickers.length === 0 ? 'Add a stock to draw its C-Score and price.' : 'None of these stocks has data to draw: see the notes above and the table.'}
          </p>
        ) : (
          <CompareChart lines={rebased} ready={allSettled} demo={isDemo} />
        )}
      </section>

      {notice && (
        <p className="cmp-notice" role="status" data-testid="compare-notice">
          {notice}
        </p>
      )}
      <section aria-labelledby="cmp-stocks" className="card">
        <h2 id="cmp-stocks" className="card-title">
          Stocks ({tickers.length} of {COMPARE_MAX})
        </h2>
        {tickers.length === 0 && selection && <p className="muted text-sm">No stocks chosen yet: add up to {COMPARE_MAX} with the search below.</p>}
        <ul className="cmp-legend" data-testid="compare-legend">
          {shown.map(({ ticker, style, data }) => (
            <li key={ticker} data-t={ticker}>
              <Marker style={style} />
              {data.state === 'unknown' ? <span className="font-semibold">{ticker}</span> : <a className="link font-semibold" href={`/signal/${ticker}`}>{ticker}</a>}{' '}
              <span className="muted">{nameOf(ticker, data)}</span>
              {data.state === 'unknown' && <span className="cmp-flag"> not in the latest report</span>}
              {data.state === 'locked' && <span className="cmp-flag"> locked: Pro</span>}
              <span className="sr-only">, {style.markerName} marker</span>
              <button type="button" className="cmp-remove" aria-label={`Remove ${ticker}`} onClick={() => change(withoutTicker(tickers, ticker))}>
                ×
              </button>
            </li>
          ))}
        </ul>
        {tickers.length < COMPARE_MAX ? (
          <form className="cmp-add" onSubmit={(event) => void onSubmit(event)} role="search">
            <label htmlFor="cmp-search" className="text-sm font-medium">
              Add a stock
            </label>
             <input id="cmp-search" onFocus={loadIndex} className="input" type="search" autoComplete="off" placeholder="Ticker or company" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
            {matches.length > 0 && (
              <ul className="cmp-matches" aria-label="Matching stocks">
                {matches.map(([t, name]) => (
                  <li key={t}>
                    <button type="button" className="cmp-match" onClick={() => change(withTicker(tickers, t))}>
                      Add <strong>{t}</strong> <span className="muted">{name}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {index && query.trim() !== '' && matches.length === 0 && <p className="muted text-sm">No stock matches "{query.trim()}".</p>}
          </form>
        ) : (
          <p className="muted text-sm">{COMPARE_MAX} stocks is the most a comparison shows: remove one to add another.</p>
        )}
      </section>


      <section aria-labelledby="cmp-table" className="card">
        <h2 id="cmp-table" className="card-title">
          Side by side
        </h2>
        {/* Focusable: a keyboard scrolls the wide table sideways on a phone. */}
        <div className="cmp-scroll" tabIndex={0} role="region" aria-label="The comparison table, scrolls sideways">
          <table className="cmp-table" data-testid="compare-table">
            <caption className="sr-only">The compared stocks' scores on the report of {formatDate(reportDate)}, in the order chosen</caption>
            <thead>
              <tr>
                <th scope="col">Stock</th>
                <th scope="col">C-Score</th>
                <th scope="col">Change vs yesterday</th>
                <th scope="col">Delta</th>
                <th scope="col">Market</th>
                <th scope="col">Accuracy</th>
                <th scope="col">Relevance</th>
                <th scope="col">7D avg.</th>
                <th scope="col">14D avg.</th>
                <th scope="col">Signal days</th>
                <th scope="col">Sector</th>
                <th scope="col">Hit rate ({COMPARE_HIT_HORIZON}d)</th>
              </tr>
            </thead>
            <tbody>
              {shown.map(({ ticker, style, data }) => (
                <tr key={ticker} data-t={ticker} data-state={data.state}>
                  <th scope="row">
                    <Marker style={style} /> {data.state === 'unknown' ? ticker : <a className="link" href={`/signal/${ticker}`}>{ticker}</a>}
                    <span className="cmp-co muted">{nameOf(ticker, data)}</span>
                  </th>
                  {data.state === 'ready' ? (
                    <RowCells record={data.record} hit={data.hit} />
                  ) : (
                    <td colSpan={11}>
                      {data.state === 'loading' && <span className="muted">Loading {ticker}...</span>}
                      {data.state === 'unknown' && <span>{ticker} is not in the latest report.</span>}
                      {data.state === 'error' && <span>Could not load {ticker}: {data.message}</span>}
                      {data.state === 'locked' && (
                        <span>
                          🔒 A top signal: its scores are part of Pro.{' '}
                          <button type="button" className="btn btn-primary" onClick={() => openPaywall(PRO_FEATURES.topStockDetails)}>
                            Upgrade to Pro
                          </button>
                        </span>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

function RowCells({ record, hit }: { record: SignalRecord; hit: { hitRate: number | null; resolved: number } | null }) {
  const row = compareRow(record);
  return (
    <>
      <td className="num" data-testid="compare-cscore">
        {formatScore(row.cScore)} <span className={`badge badge-${row.direction}`}>{row.signal}</span>
      </td>
      <td className="num">{formatSignedScore(row.change)}</td>
      <td className="num">{formatScore(row.delta)}</td>
      <td className="num">{formatScore(row.market)}</td>
      <td className="num">{formatScore(row.accuracy)}</td>
      <td className="num">{formatScore(row.relevance)}</td>
      <td className="num">{formatScore(row.avg7)}</td>
      <td className="num">{formatScore(row.avg14)}</td>
      <td className="num">
        {row.days7} of 7, {row.days14} of 14
      </td>
      <td>{row.sector ?? '—'}</td>
      <td className="num">{hit === null || hit.resolved === 0 ? '—' : `${formatHitRate(hit.hitRate)} of ${hit.resolved}`}</td>
    </>
  );
}

export default withErrorBoundary(CompareView, 'CompareView');
