/**
 * Alert rules of one's own: "C-Score crosses above X", "crosses below Y" and "moves by N points or more in one
 * report", each on one ticker. Pure: the server checks a rule with `checkRule`, the daily job fires them with
 * `firedRules` against the stored scores of the report and the one before, and the push and the panel word them.
 */
import { formatScore } from '../text/format';
import { isTicker, TICKER_RULE } from '../report/ticker';
import type { SignalHistory } from '../report/schemas';
import { asciiUpper } from '../text/text';

/** The kinds of rule. */
export const RULE_KINDS = ['above', 'below', 'move'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** The range of each kind's value: a C-Score level for the crossings, a number of points for a move. */
export const RULE_RANGES: Record<RuleKind, { min: number; max: number }> = {
  above: { min: -100, max: 100 },
  below: { min: -100, max: 100 },
  move: { min: 1, max: 200 },
};

/** A rule as the user gives it. */
export interface RuleInput {
  ticker: string;
  kind: RuleKind;
  value: number;
}

/** A stored rule. */
export interface AlertRule extends RuleInput {
  id: string;
  createdAt: string;
}

/** How many rules fire per account: Free's and Pro's limits (the same number without the paywall). */
export interface RuleLimits {
  free: number;
  pro: number;
}

/**
 * Whether the rule at `index` of an account's rules, oldest first, is paused: with more rules than the plan allows
 * (after a downgrade), only the `limit` oldest fire until the user deletes some or upgrades. The firing SQL
 * (RuleStore.evaluate) ranks the same way: by creation time, then id.
 */
export function rulePaused(index: number, limit: number): boolean {
  return index >= limit;
}

/** The sentence over an account's rules when some are paused (`upgrade`: Pro would allow more); null when none is. */
export function pausedRulesText(count: number, limit: number, upgrade: boolean): string | null {
  if (count <= limit) return null;
  const paused = count - limit;
  const which = paused === 1 ? 'the newest is paused and does not fire' : `the ${paused} newest are paused and do not fire`;
  return `Your plan allows ${limit} alert rules and you have ${count}: only your ${limit} oldest fire; ${which}. ${upgrade ? 'Upgrade to Pro or delete rules' : 'Delete rules'} to have them fire again.`;
}

/** A bad rule: the field to fix and what to do. */
export interface RuleProblem {
  field: 'ticker' | 'kind' | 'value' | 'rules';
  problem: string;
}

/** A rule that fired on a report. */
export interface RuleEvent {
  ruleId: string;
  userId: string;
  ticker: string;
  kind: RuleKind;
  value: number;
  reportDate: string;
  scoreBefore: number;
  scoreAfter: number;
}

/** A ticker's C-Score on the report before and on this one. */
export interface ScoreChange {
  before: number;
  after: number;
}

/** A rule in words, e.g. "AAPL: C-Score crosses above 70". */
export function ruleText(rule: Pick<RuleInput, 'ticker' | 'kind' | 'value'>): string {
  switch (rule.kind) {
    case 'above':
      return `${rule.ticker}: C-Score crosses above ${formatLevel(rule.value)}`;
    case 'below':
      return `${rule.ticker}: C-Score crosses below ${formatLevel(rule.value)}`;
    case 'move':
      return `${rule.ticker}: C-Score moves by ${formatLevel(rule.value)} points or more in one report`;
  }
}

/** A level as typed: whole numbers without decimals, others with up to two. */
function formatLevel(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

/**
 * The rule, cleaned (the ticker upper-cased), or the field that is wrong. `known` answers whether the latest report
 * has the ticker; `count` and `limit` are the rules the user has and may have.
 */
export function checkRule(input: { ticker?: unknown; kind?: unknown; value?: unknown }, context: { known: (ticker: string) => boolean; count: number; limit: number }): { rule: RuleInput } | RuleProblem {
  if (typeof input.kind !== 'string' || !(RULE_KINDS as readonly string[]).includes(input.kind)) {
    return { field: 'kind', problem: `kind must be one of ${RULE_KINDS.join(', ')} (crosses above, crosses below, moves by).` };
  }
  const kind = input.kind as RuleKind;
  const range = RULE_RANGES[kind];
  if (typeof input.value !== 'number' || !Number.isFinite(input.value) || input.value < range.min || input.value > range.max) {
    return { field: 'value', problem: `value must be a number from ${range.min} to ${range.max} for a "${kind}" rule.` };
  }
  const ticker = typeof input.ticker === 'string' ? asciiUpper(input.ticker.trim()) : '';
  if (!isTicker(ticker)) return { field: 'ticker', problem: `ticker must be ${TICKER_RULE}, such as AAPL.` };
  if (!context.known(ticker)) return { field: 'ticker', problem: `ticker ${ticker} is not in the latest report: pick a stock the site lists.` };
  if (context.count >= context.limit) {
    return { field: 'rules', problem: `Your plan allows ${context.limit} alert rules and you have ${context.count}: delete one first.` };
  }
  return { rule: { ticker, kind, value: Math.round(input.value * 100) / 100 } };
}

/** Whether a rule fires on a change: a crossing needs the score before on the other side of its level. */
export function ruleFires(rule: Pick<RuleInput, 'kind' | 'value'>, change: ScoreChange): boolean {
  switch (rule.kind) {
    case 'above':
      return change.before < rule.value && change.after >= rule.value;
    case 'below':
      return change.before > rule.value && change.after <= rule.value;
    case 'move':
      return Math.abs(change.after - change.before) >= rule.value;
  }
}

/**
 * Each ticker's C-Score on the report before the latest and on the latest; a ticker missing from either has no
 * change (a rule needs two scores to compare).
 */
export function reportChanges(history: SignalHistory): Map<string, ScoreChange> {
  const changes = new Map<string, ScoreChange>();
  const before = history.dates.length - 2;
  if (before < 0) return changes;
  for (const record of history.latest) {
    const score = history.scores[record.ticker]?.[before];
    if (typeof score === 'number') changes.set(record.ticker, { before: score, after: record.cScore });
  }
  return changes;
}

/** A fired rule in words, with the scores when shown, e.g. "AAPL crossed above 70: C-Score 68.00 to 71.50". */
export function ruleEventText(event: Pick<RuleEvent, 'ticker' | 'kind' | 'value' | 'scoreBefore' | 'scoreAfter'>, withScores = true): string {
  const scores = withScores ? `: C-Score ${formatScore(event.scoreBefore)} to ${formatScore(event.scoreAfter)}` : '';
  switch (event.kind) {
    case 'above':
      return `${event.ticker} crossed above ${formatLevel(event.value)}${scores}`;
    case 'below':
      return `${event.ticker} crossed below ${formatLevel(event.value)}${scores}`;
    case 'move':
      return `${event.ticker} moved ${formatLevel(event.value)} points or more${scores}`;
  }
}
