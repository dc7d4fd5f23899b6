/**
 * The chat's tools: the only way the model sees anything, each a read of the published report. Company
 * names and sectors in their answers are data from outside, and the system prompt says so.
 */
import { tool } from 'ai';
import { z } from 'zod';
import { FACTS_TREND_POINTS, RULES_SECTION, qualifiedStocks } from '../../lib/domain/ai/facts';
import { tickerTrend } from '../../lib/domain/trend/trend';
import { LOCKED_SIGNAL_LABEL } from '../../lib/domain/accounts/entitlements';
import type { SignalHistory, SignalRecord } from '../../lib/domain/report/schemas';
import { classifySignal, THRESHOLD_WORDS } from '../../lib/domain/signals/signal';
import { similarTickers } from '../../lib/domain/signals/similar';
import { asciiUpper } from '../../lib/domain/text/text';
import { isTicker } from '../../lib/domain/report/ticker';

/** Most stocks one list answer carries (the answer says how many there are). */
export const TOOL_LIST_LIMIT = 25;

const round = (value: number) => Math.round(value * 100) / 100;

/** A record as the tools hand it to the model; `hidden` (a locked top ticker) carries no score and no direction. */
function summary(record: SignalRecord, hidden: boolean) {
  const base = { ticker: record.ticker, companyName: record.companyName, sector: record.sector ?? null };
  if (hidden) return { ...base, signal: LOCKED_SIGNAL_LABEL, scores: 'Pro only: this top signal is locked on the Free plan; its score and direction are not shown.' };
  return { ...base, cScore: round(record.cScore), signal: classifySignal(record.cScore) };
}

/** The tools of one chat request, over the report `history` of `reportDate`; `hidden` tickers' scores are left out. */
export function chatTools(history: SignalHistory, reportDate: string, hidden: ReadonlySet<string>) {
  const records = new Map(history.latest.map((r) => [r.ticker, r]));
  const sectors = [...new Set(history.latest.map((r) => r.sector).filter((s): s is string => Boolean(s)))].sort();
  const find = (raw: string) => records.get(asciiUpper(raw.trim()));
  const unknown = (raw: string) => ({ error: `No stock ${JSON.stringify(raw)} in the report of ${reportDate}. Use findTicker to search by name.` });

  return {
    findTicker: tool({
      description: 'Find stocks of the latest report by ticker or company name. Returns up to 10 matches.',
      inputSchema: z.object({ query: z.string().min(1).max(100).describe('a ticker or part of a company name') }),
      execute: async ({ query }) => {
        const wanted = query.trim().toLowerCase();
        const matches = history.latest
          .filter((r) => r.ticker.toLowerCase() === wanted || r.ticker.toLowerCase().startsWith(wanted) || r.companyName.toLowerCase().includes(wanted))
          .sort((a, b) => Number(b.ticker.toLowerCase() === wanted) - Number(a.ticker.toLowerCase() === wanted) || (a.ticker < b.ticker ? -1 : 1))
          .slice(0, 10);
        return { reportDate, matches: matches.map((r) => summary(r, hidden.has(r.ticker))) };
      },
    }),
    readTicker: tool({
      description: "Read one stock's record of the latest report: C-Score, supporting scores, 7- and 14-day figures, its trend over the last 10 reports and similar tickers.",
      inputSchema: z.object({ ticker: z.string().min(1).max(12) }),
      execute: async ({ ticker }) => {
        const record = find(ticker);
        if (record === undefined || !isTicker(record.ticker)) return unknown(ticker);
        if (hidden.has(record.ticker)) return { reportDate, ...summary(record, true) };
        return {
          reportDate,
          ...summary(record, false),
          yesterdayCScore: round(record.yesterdayCScore),
          deltaScore: round(record.deltaScore),
          marketScore: round(record.marketScore),
          accuracyScore: round(record.accuracyScore),
          relevanceScore: round(record.relevanceScore),
          avgCScoreL7D: round(record.avgCScoreL7D),
          avgCScoreL14D: round(record.avgCScoreL14D),
          signalDaysOf7: record.countL7DWithSignal,
          signalDaysOf14: record.countL14DWithSignal,
          topSignal: record.isTopTicker,
          trend: tickerTrend(history, record, FACTS_TREND_POINTS).map((p) => ({ date: p.date, cScore: round(p.cScore) })),
          similar: similarTickers(record.ticker, history.latest, 5).filter((s) => !hidden.has(s.ticker)).map((s) => ({ ticker: s.ticker, cScore: round(s.cScore) })),
        };
      },
    }),
    listQualified: tool({
      description: `List the qualified stocks of the latest report in one direction (bullish: C-Score ${THRESHOLD_WORDS.bullish}; bearish: ${THRESHOLD_WORDS.bearish}), optionally in one sector, strongest first. Sectors: ${sectors.join(', ')}.`,
      inputSchema: z.object({
        direction: z.enum(['bullish', 'bearish']),
        sector: z.string().max(60).optional().describe('one of the sectors named above'),
      }),
      execute: async ({ direction, sector }) => {
        if (sector !== undefined && sector.trim() !== '' && !sectors.some((s) => s.toLowerCase() === sector.trim().toLowerCase())) {
          return { error: `No sector ${JSON.stringify(sector)}. The sectors are: ${sectors.join(', ')}.` };
        }
        // A locked top ticker is left out: being listed in a direction would say its direction and score range.
        const stocks = qualifiedStocks(history, direction, sector).filter((r) => !hidden.has(r.ticker));
        return {
          reportDate,
          direction,
          sector: sector ?? 'all',
          count: stocks.length,
          stocks: stocks.slice(0, TOOL_LIST_LIMIT).map((r) => summary(r, hidden.has(r.ticker))),
        };
      },
    }),
    compareTickers: tool({
      description: 'Compare two to five stocks of the latest report side by side.',
      inputSchema: z.object({ tickers: z.array(z.string().min(1).max(12)).min(2).max(5) }),
      execute: async ({ tickers }) => ({
        reportDate,
        stocks: tickers.map((raw) => {
          const record = find(raw);
          if (record === undefined) return unknown(raw);
          if (hidden.has(record.ticker)) return summary(record, true);
          return {
            ...summary(record, false),
            yesterdayCScore: round(record.yesterdayCScore),
            deltaScore: round(record.deltaScore),
            marketScore: round(record.marketScore),
            avgCScoreL7D: round(record.avgCScoreL7D),
            avgCScoreL14D: round(record.avgCScoreL14D),
          };
        }),
      }),
    }),
    explainRules: tool({
      description: 'Explain the C-Score rules: the range, the bullish and bearish thresholds, what qualified means, the history windows and the supporting scores.',
      inputSchema: z.object({}),
      execute: async () => ({
        rules: RULES_SECTION.lines,
        scores: [
          'C-Score: a daily conviction score from a consumer panel of card spending combined with market expectations.',
          'Delta Score: the projected beat or miss versus consensus and its probability, a forced ranking from -100 to +100.',
          'Market Score: relative share-price performance over a blend of the past 1, 3 and 12 months, a forced ranking from -100 to +100.',
          'Accuracy Score and Relevance Score: how reliable and how relevant the panel data is for the stock.',
        ],
        note: 'The signals are informational only, not investment advice.',
      }),
    }),
  };
}
