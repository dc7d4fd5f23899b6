/**
 * Every CSV the project writes (downloads, sample exports, synthetic universes) goes through csv-stringify with
 * the formula guard of DESIGN.md "Security rules" as its cast: a text cell that a spreadsheet would run as a
 * formula gets a leading `'`.
 */
import { stringify } from 'csv-stringify/sync';
import { isFormulaLike } from './text';

/**
 * A CSV cell made safe from formula injection: a text starting with = + - @, tab or CR gets a leading `'`.
 * A plain number such as -40.5 is left alone: it cannot be a formula, and the scores are often negative.
 */
export function neutralizeCell(value: string): string {
  return isFormulaLike(value) ? `'${value}` : value;
}

/** Rows as CSV text: cells quoted when needed, text cells neutralized, one `eol` after every row (default CRLF). */
export function toCsv(rows: readonly (readonly unknown[])[], { eol = '\r\n' }: { eol?: string } = {}): string {
  return stringify(rows as unknown[][], { record_delimiter: eol, quoted_match: /[\r\n]/, cast: { string: neutralizeCell } });
}
