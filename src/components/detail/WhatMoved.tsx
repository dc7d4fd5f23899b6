/**
 * "What moved": the four supporting scores with their change since the previous report and over the last reports.
 * Rendered to plain HTML on the stock page (no JavaScript) and, compact, in the detail dialog.
 */
import { formatDate, formatScore, formatSignedScore } from '../../lib/domain/text/format';
import { spanHeading, spanTitle, type WhatMoved as Moved } from '../../lib/domain/trend/what-moved';

export default function WhatMoved({ moved, idPrefix, compact = false }: { moved: Moved; idPrefix: string; compact?: boolean }) {
  const id = `${idPrefix}-moved`;
  const prev = moved.previousDate ? `Change since the report of ${formatDate(moved.previousDate)}` : 'No earlier report';
  if (compact) {
    return (
      <section aria-labelledby={id} className="card text-sm">
        <h2 id={id} className="card-title">What moved</h2>
        <p>
          {moved.rows.map((r, i) => (
            <span key={r.label}>
              {i > 0 && ' · '}
              {r.label} {formatScore(r.current)} <span className="muted">({formatSignedScore(r.sincePrevious)} last report, {formatSignedScore(r.overSpan)} over {spanHeading(moved)})</span>
            </span>
          ))}
        </p>
        {moved.shortNote && <p className="muted text-xs">{moved.shortNote}</p>}
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} className="card-title">What moved</h2>
      <table className="w-full text-sm tabular-nums">
        <thead className="muted">
          <tr><th scope="col" className="text-left">Score</th><th scope="col" className="text-right">Now</th><th scope="col" className="text-right" title={prev}>Last report</th><th scope="col" className="text-right" title={spanTitle(moved)}>{spanHeading(moved)}</th></tr>
        </thead>
        <tbody>
          {moved.rows.map((r) => (
            <tr key={r.label}><th scope="row" className="text-left">{r.label}</th><td className="text-right">{formatScore(r.current)}</td><td className="text-right">{formatSignedScore(r.sincePrevious)}</td><td className="text-right">{formatSignedScore(r.overSpan)}</td></tr>
          ))}
        </tbody>
      </table>
      {moved.shortNote && <p className="muted text-xs mt-2">{moved.shortNote}</p>}
    </section>
  );
}
