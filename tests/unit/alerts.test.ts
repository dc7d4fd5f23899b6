import { describe, expect, it } from 'vitest';
import { cleanKinds, composeDigest, eventId, publicEvents, signalEvents } from '../../src/lib/domain/alerts/alerts';
import { signalFeed } from '../../src/lib/domain/alerts/feeds';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { signalRecord } from '../fixtures/records';

/** A history whose latest report holds every ticker with a score on the last date. */
function history(dates: string[], scores: Record<string, (number | null)[]>): SignalHistory {
  const last = dates.at(-1)!;
  const latest = Object.entries(scores).flatMap(([ticker, row]) => {
    const score = row.at(-1);
    return typeof score === 'number' ? [signalRecord(ticker, { cScore: score, reportDate: last })] : [];
  });
  return { dates, latest, scores };
}

const dates = ['2026-11-16', '2026-11-17', '2026-11-18'];

describe('signal events of the latest report', () => {
  const events = signalEvents(
    history(dates, {
      NEW: [10, 40, 70], // entered bullish
      BEAR: [0, 0, -66], // entered bearish
      OUT: [80, 75, 60], // exited bullish
      REV: [70, 70, -70], // reversed to bearish
      STAY: [70, 70, 90], // qualified throughout: nothing
      FIRST: [null, null, 70], // first report: entered (absent counts as not qualified)
      GONE: [70, 70, null], // not in the latest report: no event
      FLIP: [64.5, 65.4, 64.8], // crossed +65 by 0.4 and back: borderline, not an exit
      REIN: [65.3, 64.9, 65.2], // back over +65 by 0.2 after a flicker: borderline, not an entry
      FAR: [64.5, 70, 64.8], // 5 points past +65 and back: a real exit
      SLOW: [60, 64.5, 65.5], // a first crossing: entered (the flicker is only known when it crosses back)
    }),
  );
  const byTicker = Object.fromEntries(events.map((e) => [e.ticker, e]));

  it('finds entered, exited and reversed with direction and the scores before and after', () => {
    expect(byTicker.NEW).toEqual({ ticker: 'NEW', reportDate: '2026-11-18', kind: 'entered', direction: 'bullish', scoreBefore: 40, scoreAfter: 70, borderline: false });
    expect(byTicker.BEAR).toMatchObject({ kind: 'entered', direction: 'bearish', scoreBefore: 0, scoreAfter: -66 });
    expect(byTicker.OUT).toMatchObject({ kind: 'exited', direction: 'bullish', scoreBefore: 75, scoreAfter: 60 });
    expect(byTicker.REV).toMatchObject({ kind: 'reversed', direction: 'bearish', scoreBefore: 70, scoreAfter: -70 });
    expect(byTicker.FIRST).toMatchObject({ kind: 'entered', direction: 'bullish', scoreBefore: null, scoreAfter: 70 });
    expect(byTicker.STAY).toBeUndefined();
    expect(byTicker.GONE).toBeUndefined();
  });

  it('flags a crossing of ±65 by less than 1 point and back within 3 reports as borderline, never entered or exited', () => {
    expect(byTicker.FLIP).toMatchObject({ kind: 'crossed', direction: 'bullish', borderline: true, scoreBefore: 65.4, scoreAfter: 64.8 });
    expect(byTicker.REIN).toMatchObject({ kind: 'crossed', direction: 'bullish', borderline: true });
    expect(byTicker.FAR).toMatchObject({ kind: 'exited', borderline: false });
    expect(byTicker.SLOW).toMatchObject({ kind: 'entered', borderline: false });
    expect(publicEvents(events).map((e) => e.ticker)).not.toContain('FLIP');
  });

  it('a flicker over days is entered once, then only borderline crossings', () => {
    const scores = [60, 64.6, 65.3, 64.7, 65.2, 64.9];
    const days = ['2026-11-11', '2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18'];
    const kinds = days.slice(1).map((_, i) => signalEvents(history(days.slice(0, i + 2), { FLK: scores.slice(0, i + 2) }))[0]?.kind ?? null);
    expect(kinds).toEqual([null, 'entered', 'crossed', 'crossed', 'crossed']);
  });

  it('a bearish flicker around -65 is borderline too', () => {
    const [event] = signalEvents(history(dates, { BFL: [-65.6, -64.2, -65.1] }));
    expect(event).toMatchObject({ kind: 'crossed', direction: 'bearish', borderline: true });
  });

  it('has no events with a single report', () => {
    expect(signalEvents(history(['2026-11-18'], { NEW: [70] }))).toEqual([]);
  });
});

describe('alert kinds', () => {
  it('keeps known kinds in order and names an unknown one', () => {
    expect(cleanKinds(['reversed', 'entered', 'entered'])).toEqual({ kinds: ['entered', 'reversed'] });
    expect(cleanKinds(['entered', 'sideways'])).toEqual({ problem: 'Unknown alert kind "sideways": use entered, exited, reversed, crossed.' });
  });
});

describe('the digest', () => {
  const [event] = signalEvents(history(dates, { AAPL: [10, 40, 70.5] }));
  const mail = composeDigest({ to: 'ann@example.com', siteName: 'C-Score Signals', siteUrl: 'https://signals.example', reportDate: '2026-11-18', events: [event!], unsubscribeUrl: 'https://signals.example/api/alerts/unsubscribe?token=abc' });

  it('names the events with links to the signals\' permalinks, in text and HTML, and the unsubscribe link', () => {
    expect(mail.subject).toBe('C-Score Signals: 1 signal alert for Nov 18, 2026');
    expect(mail.text).toContain('- AAPL is a new bullish signal: C-Score 40.00 to 70.50\n  https://signals.example/signal/AAPL/2026-11-18\n');
    expect(mail.text).toContain('Unsubscribe from these emails: https://signals.example/api/alerts/unsubscribe?token=abc');
    expect(mail.html).toContain('<a href="https://signals.example/signal/AAPL/2026-11-18">AAPL</a>: is a new bullish signal: C-Score 40.00 to 70.50');
    expect(mail.html).toContain('<a href="https://signals.example/api/alerts/unsubscribe?token=abc">Unsubscribe from these emails</a>');
  });

  it('gives each event a stable address as its feed id', () => {
    expect(eventId('https://signals.example', event!)).toBe('https://signals.example/signal/AAPL#2026-11-18-entered');
    const feed = signalFeed({ siteUrl: 'https://signals.example', title: 'T', description: 'D', links: { atom: 'https://signals.example/feeds/signals.xml', json: 'https://signals.example/feeds/signals.json' }, events: [event!], updated: new Date('2026-11-18T12:00:00Z') });
    const json = JSON.parse(feed.json1()) as { version: string; items: { id: string }[] };
    expect(json.items.map((i) => i.id)).toEqual(['https://signals.example/signal/AAPL#2026-11-18-entered']);
  });
});
