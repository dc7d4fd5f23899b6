/**
 * The list tables' score columns (DESIGN.md "Lists") and which of them a reader shows (at 1280 px the least
 * important collapse behind a column chooser remembered locally). Pure: SignalTable renders from it, the column
 * chooser reads and writes the choice through it.
 */

/** A score column after the C-Score, in its table order; `width` is its share of the row (CSS fr units, about rem). */
export const OPTIONAL_COLUMNS = [
  { key: 'delta', label: 'Delta', width: 5.5 },
  { key: 'market', label: 'Market', width: 5.5 },
  { key: 'accuracy', label: 'Accuracy', width: 6.5 },
  { key: 'relevance', label: 'Relevance', width: 7 },
  { key: 'avg7', label: '7D Avg', width: 5.5 },
  { key: 'avg14', label: '14D Avg', width: 5.5 },
  { key: 'days7', label: 'Signal days 7D', width: 5.5 },
  { key: 'days14', label: 'Signal days 14D', width: 5.5 },
] as const;

/** The key of an optional column. */
export type OptionalColumnKey = (typeof OPTIONAL_COLUMNS)[number]['key'];

const KEYS: ReadonlySet<string> = new Set(OPTIONAL_COLUMNS.map((c) => c.key));

/** Shown until the reader chooses: what fits beside ticker, C-Score and price at 1280 px; the signal-day counts wait in the chooser. */
export const DEFAULT_SHOWN_COLUMNS: readonly OptionalColumnKey[] = ['delta', 'market', 'accuracy', 'relevance', 'avg7', 'avg14'];

/** Reads a stored choice (a JSON list of keys); anything unreadable is the default, unknown keys are dropped. */
export function parseShownColumns(stored: string | null | undefined): OptionalColumnKey[] {
  if (!stored) return [...DEFAULT_SHOWN_COLUMNS];
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [...DEFAULT_SHOWN_COLUMNS];
    return OPTIONAL_COLUMNS.map((c) => c.key).filter((key) => value.includes(key));
  } catch {
    return [...DEFAULT_SHOWN_COLUMNS];
  }
}

/** The stored form of a choice, in table order. */
export function serializeShownColumns(shown: Iterable<string>): string {
  const set = new Set(shown);
  return JSON.stringify(OPTIONAL_COLUMNS.map((c) => c.key).filter((key) => set.has(key) && KEYS.has(key)));
}

/** The table's classes that hide the optional columns not in `shown` ('hide-days7', ...). */
export function hiddenColumnClasses(shown: Iterable<string>): string[] {
  const set = new Set(shown);
  return OPTIONAL_COLUMNS.filter((c) => !set.has(c.key)).map((c) => `hide-${c.key}`);
}
