/**
 * The detail view's cards that need no live data and that both views show: the stock page renders them to static
 * HTML (no client directive) and the detail dialog renders the same components, so both show one source of every
 * figure and text. The cards only the page shows are Astro components (components/detail/).
 */
import type { ReactNode } from 'react';
import { avatar, TONE_TEXT, TREND_ARROW } from '../../components/tone';
import cScoreGuide from '../../content/explainer/c-score.json';
import { disclaimer, signalExplanations } from '../../lib/domain/signals/detail';
import { fillGuide } from '../../lib/domain/site/editorial';
import { formatDate, formatScore, formatYesterdayScore, scoreBarFill } from '../../lib/domain/text/format';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import { classifySignal, signalDirection, THRESHOLD_PLACEHOLDERS, trendDirection, type SignalDirection } from '../../lib/domain/signals/signal';

// The dialog renders in the browser, where astro:content does not exist; the explainer collection checks this file,
// and the stock pages' build renders it, so an unknown placeholder fails the build.
const CSCORE_GUIDE = fillGuide(cScoreGuide, THRESHOLD_PLACEHOLDERS, 'src/content/explainer/c-score.json');

const TONE_BADGE: Record<SignalDirection, string> = {
  bullish: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300',
  bearish: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-300',
  neutral: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
};

const TONE_FILL: Record<SignalDirection, string> = {
  bullish: 'bg-green-600',
  bearish: 'bg-red-600',
  neutral: 'bg-gray-500',
};

/** The card frame of the React cards (components/detail/Card.astro frames the Astro ones). */
function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} className="card-title">{title}</h2>
      {children}
    </section>
  );
}

/** Bullish, Bearish or Neutral badge of a C-Score. */
export function SignalBadge({ score }: { score: number | null | undefined }) {
  return <span className={`badge ${TONE_BADGE[signalDirection(score)]}`}>{classifySignal(score)}</span>;
}

/** A term with a hover and focus tooltip (CSS only, so it works in static HTML and inside the modal). */
function Tip({ id, label, tip }: { id: string; label: string; tip: string }) {
  return (
    <span className="tip">
      {label}
      <button type="button" className="tip-btn" aria-label={`About ${label}`} aria-describedby={id}>
        <span aria-hidden="true">i</span>
      </button>
      <span role="tooltip" id={id} className="tip-text">{tip}</span>
    </span>
  );
}

/** Avatar of a ticker: its first letter on a sentiment colour, or the company logo over it when one is known. */
export function Avatar({ ticker, score, logo }: { ticker: string; score: number; logo?: boolean }) {
  const { className, letter, logoSrc, logoPx } = avatar(ticker, score, 'lg');
  return (
    <span className={className} aria-hidden="true">
      {letter}
      {logo && (
        // A missing logo falls back to the letter underneath.
        <img src={logoSrc} alt="" width={logoPx} height={logoPx} loading="lazy" decoding="async" onError={(e) => e.currentTarget.remove()} />
      )}
    </span>
  );
}

/** The C-Score card: score (counted up by the page), badge, 'vs {x} yesterday' with an arrow, the centred bar, Market and Delta. */
export function ScoreCard({ record, idPrefix }: { record: SignalRecord; idPrefix: string }) {
  const direction = signalDirection(record.cScore);
  const trend = trendDirection(record.cScore, record.yesterdayCScore);
  const fill = scoreBarFill(record.cScore);
  return (
    <Card title="C-Score" id={`${idPrefix}-score`}>
      <div className="flex flex-wrap items-center gap-3">
        <span className={`score-num ${TONE_TEXT[direction]}`} data-countup={record.cScore} data-testid="cscore">
          {formatScore(record.cScore)}
        </span>
        <SignalBadge score={record.cScore} />
      </div>
      <p className="mt-1 text-sm muted" data-testid="vs-yesterday">
        <span className={TONE_TEXT[trend === 'up' ? 'bullish' : trend === 'down' ? 'bearish' : 'neutral']} data-arrow={trend}>
          <span aria-hidden="true">{TREND_ARROW[trend].mark}</span>
          <span className="sr-only">{TREND_ARROW[trend].label}, </span>
        </span>{' '}
        vs {formatYesterdayScore(record.yesterdayCScore)} yesterday
      </p>
      <div className="tip-block mt-4">
        <div
          className="bar"
          role="meter"
          aria-valuemin={-100}
          aria-valuemax={100}
          aria-valuenow={record.cScore}
          aria-label={`C-Score ${formatScore(record.cScore)} on a scale from -100 to +100`}
          aria-describedby={`${idPrefix}-bar-tip`}
          tabIndex={0}
        >
          <span className="bar-mid" />
          <span
            className={`bar-fill ${TONE_FILL[direction]}`}
            data-testid="score-bar-fill"
            style={{ left: `${Number(fill.startPercent.toFixed(3))}%`, width: `${Number(fill.widthPercent.toFixed(3))}%` }}
          />
        </div>
        <span role="tooltip" id={`${idPrefix}-bar-tip`} className="tip-text">
          C-Score {formatScore(record.cScore)}: the bar runs from -100 (left) through 0 (centre) to +100 (right).
        </span>
        <div className="flex justify-between text-xs muted" aria-hidden="true">
          <span>-100</span>
          <span>0</span>
          <span>+100</span>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-xs muted">
            <Tip id={`${idPrefix}-market-tip`} label="Market Score" tip="Relative share-price performance over a blend of the past 1, 3 and 12 months, a forced ranking from -100 to +100." />
          </dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="market-score">{formatScore(record.marketScore)}</dd>
        </div>
        <div>
          <dt className="text-xs muted">
            <Tip id={`${idPrefix}-delta-tip`} label="Delta Score" tip="Projected beat or miss versus consensus and its probability, a forced ranking from -100 to +100." />
          </dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="delta-score">{formatScore(record.deltaScore)}</dd>
        </div>
      </dl>
    </Card>
  );
}

/** Signal Information: the Top Signal text, the classification's text and the collapsible interpretation guide. */
export function SignalInfoCard({ record, idPrefix }: { record: SignalRecord; idPrefix: string }) {
  const items = signalExplanations(record.ticker, record.cScore, record.isTopTicker);
  return (
    <Card title="Signal Information" id={`${idPrefix}-info`}>
      {items.map((item) => (
        <div key={item.tone} className="mt-2" data-testid={`explanation-${item.tone}`}>
          <h3 className={`font-semibold ${item.tone === 'top' ? 'text-amber-700 dark:text-amber-400' : TONE_TEXT[item.tone]}`}>
            {item.tone === 'top' && <span aria-hidden="true">★ </span>}
            {item.heading}
          </h3>
          <p className="text-sm">{item.text}</p>
        </div>
      ))}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium">{CSCORE_GUIDE.summary}</summary>
        <h3 className="mt-2 font-semibold">{CSCORE_GUIDE.title}</h3>
        <ul className="mt-1 list-disc pl-5">
          {CSCORE_GUIDE.ranges.map((r) => (
            <li key={r.label}>
              <strong>{r.range}</strong>: {r.label}, {r.text}
            </li>
          ))}
        </ul>
        <p className="mt-2 muted">{CSCORE_GUIDE.methodology}</p>
        <p className="mt-1">
          <a className="link" href="/methodology" data-testid="guide-methodology">
            The full methodology
          </a>
        </p>
      </details>
    </Card>
  );
}

function Pairs({ pairs, testid }: { pairs: [string, string][]; testid: string }) {
  return (
    <dl className="grid grid-cols-2 gap-3" data-testid={testid}>
      {pairs.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs muted">{label}</dt>
          <dd className="font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Signal Metrics: Delta, Accuracy, Market and Relevance scores. */
export function MetricsCard({ record, idPrefix }: { record: SignalRecord; idPrefix: string }) {
  return (
    <Card title="Signal Metrics" id={`${idPrefix}-metrics`}>
      <Pairs
        testid="signal-metrics"
        pairs={[
          ['Delta Score', formatScore(record.deltaScore)],
          ['Accuracy Score', formatScore(record.accuracyScore)],
          ['Market Score', formatScore(record.marketScore)],
          ['Relevance Score', formatScore(record.relevanceScore)],
        ]}
      />
    </Card>
  );
}

/** C-Score History: the 7- and 14-day averages and signal-day counts. */
export function HistoryCard({ record, idPrefix }: { record: SignalRecord; idPrefix: string }) {
  return (
    <Card title="C-Score History" id={`${idPrefix}-history`}>
      <Pairs
        testid="cscore-history"
        pairs={[
          ['7-Day Average', formatScore(record.avgCScoreL7D)],
          ['14-Day Average', formatScore(record.avgCScoreL14D)],
          ['7-Day Signals', `${record.countL7DWithSignal} of 7 days`],
          ['14-Day Signals', `${record.countL14DWithSignal} of 14 days`],
        ]}
      />
    </Card>
  );
}

/** The footer: the report date and the full disclaimer. */
export function DetailFooter({ reportDate, siteName }: { reportDate: string | null | undefined; siteName: string }) {
  return (
    <footer className="mt-6 border-t border-gray-200 pt-4 text-xs muted dark:border-gray-800">
      <p data-testid="report-date">Signal data uploaded: {formatDate(reportDate ?? null)}</p>
      <p className="mt-2">{disclaimer(siteName)}</p>
    </footer>
  );
}
