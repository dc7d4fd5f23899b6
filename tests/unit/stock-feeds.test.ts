/**
 * The feed per stock: a ticker's events over the whole history, stable ids, the entitlement rule for a locked top
 * ticker, and valid Atom 1.0 (a strict XML parser's tree, RFC 4287's rules) and JSON Feed 1.1 (a JSON Schema, ajv).
 */
import { describe, expect, it } from 'vitest';
import { eventsByTicker, jsonFeed11, stockFeed, stockFeedPaths } from '../../src/lib/domain/alerts/stock-feeds';
import type { SignalHistory } from '../../src/lib/domain/report/schemas';
import { atomProblems10, jsonFeedProblems } from '../fixtures/feed-validators';
import { signalRecord } from '../fixtures/records';

const SITE = 'https://signals.example';
/** AAPL enters bullish on 11-18, exits on 11-19 and enters bearish... reversing on 11-20; MSFT never qualifies. */
const HISTORY: SignalHistory = {
  dates: ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'],
  latest: [signalRecord('AAPL', { cScore: -70 }), signalRecord('MSFT', { cScore: 10 })],
  scores: { AAPL: [50, 70, 68, -70], MSFT: [1, 2, 3, 10] },
};

const feedOf = (locked: boolean) =>
  stockFeed({ siteUrl: SITE, siteName: 'C-Score Signals', ticker: 'AAPL', events: eventsByTicker(HISTORY).get('AAPL') ?? [], locked, reportDate: '2026-11-20', firstDate: '2026-11-17' });

describe('the feed per stock', () => {
  it('lists the ticker\'s events of every report, newest first, with ids that name the event', () => {
    const events = eventsByTicker(HISTORY);
    expect(events.get('AAPL')!.map((e) => [e.reportDate, e.kind, e.direction])).toEqual([
      ['2026-11-20', 'reversed', 'bearish'],
      ['2026-11-18', 'entered', 'bullish'],
    ]);
    expect(events.has('MSFT')).toBe(false);
    const json = JSON.parse(jsonFeed11(feedOf(false).json1()));
    expect(json.items.map((item: { id: string }) => item.id)).toEqual([`${SITE}/signal/AAPL#2026-11-20-reversed`, `${SITE}/signal/AAPL#2026-11-18-entered`]);
    expect(json.items[0].title).toBe('AAPL reversed to bearish: C-Score 68.00 to -70.00');
    expect(json.feed_url).toBe(`${SITE}${stockFeedPaths('AAPL').json}`);
    // The same history writes the same feed: nothing depends on the build's clock.
    expect(jsonFeed11(feedOf(false).json1())).toBe(jsonFeed11(feedOf(false).json1()));
  });

  it('validates as Atom 1.0 and as JSON Feed 1.1', () => {
    expect(atomProblems10(feedOf(false).atom1())).toEqual([]);
    expect(jsonFeedProblems(jsonFeed11(feedOf(false).json1()))).toEqual([]);
    // The validators do fail: the feed package's own JSON (version 1) is no 1.1 feed, an Atom feed without its id is refused.
    expect(jsonFeedProblems(feedOf(false).json1())).toContainEqual(expect.stringContaining('/version must be equal to constant'));
    expect(atomProblems10(feedOf(false).atom1().replace(/<id>[^<]*<\/id>/, ''))).toContain('the feed has 0 <id>, needs exactly one');
    // An empty feed (a stock that never changed) is valid too.
    const empty = stockFeed({ siteUrl: SITE, siteName: 'C-Score Signals', ticker: 'MSFT', events: [], locked: false, reportDate: '2026-11-20', firstDate: '2026-11-17' });
    expect(atomProblems10(empty.atom1())).toEqual([]);
    expect(jsonFeedProblems(jsonFeed11(empty.json1()))).toEqual([]);
  });

  it('a locked top ticker\'s feed shows no score, and its latest report says only "top signal"', () => {
    const json = JSON.parse(jsonFeed11(feedOf(true).json1()));
    expect(json.items.map((item: { title: string }) => item.title)).toEqual(['AAPL is a top signal', 'AAPL is a new bullish signal']);
    expect(feedOf(true).atom1()).not.toMatch(/C-Score -?\d|to bearish|-70/);
  });
});
