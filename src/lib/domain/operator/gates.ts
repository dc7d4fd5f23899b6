/**
 * The data gates' names and the dates they compare (docs/limits-and-gates.md); the daily job's src/ingest/gates.ts runs
 * them. Pure, so the configuration and the pages can name the gates too.
 */
import { isTradingDay } from '../market-data/calendar';

/** The gates, by the names `--accept` takes. */
export const GATES = ['future-date', 'ticker-drop', 'backdated'] as const;

/** One gate's name. */
export type GateName = (typeof GATES)[number];

/** Default share (percent) by which the latest report's ticker count may fall against the previous one. */
export const DEFAULT_TICKER_DROP_PERCENT = 20;

/** A gate an operator accepted for this run, as the summary (and the run log) records it. */
export interface GateOverride {
  gate: GateName;
  file: string;
  message: string;
}

/** A report date a run added or replaced before the latest one (an accepted correction). */
export interface Correction {
  date: string;
  change: 'added' | 'replaced';
  file: string;
}

/** The gate names in a command line's words, or the problem with the first unknown one. */
export function parseGateNames(names: readonly string[]): { gates: Set<GateName> } | { problem: string } {
  const gates = new Set<GateName>();
  for (const name of names) {
    if (!(GATES as readonly string[]).includes(name)) return { problem: `--accept ${name || '(nothing)'}: there is no such gate; the gates are ${GATES.join(', ')}.` };
    gates.add(name as GateName);
  }
  return { gates };
}

/** The first NYSE trading day after `iso`. */
export function nextTradingDay(iso: string): string {
  let day = Date.parse(`${iso}T00:00:00Z`);
  do day += 86_400_000;
  while (!isTradingDay(new Date(day).toISOString().slice(0, 10)));
  return new Date(day).toISOString().slice(0, 10);
}
