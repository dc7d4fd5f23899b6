/**
 * The CSV rules every writer shares, apart from the writer (csv.ts uses csv-stringify's Node build, the browser its
 * browser build): the formula guard of DESIGN.md "Security rules" and the stringify options.
 */
import { isFormulaLike } from './text';

/**
 * A CSV cell made safe from formula injection: a text starting with = + - @, tab or CR gets a leading `'`.
 * A plain number such as -40.5 is left alone: it cannot be a formula, and the scores are often negative.
 */
export function neutralizeCell(value: string): string {
  return isFormulaLike(value) ? `'${value}` : value;
}

/** csv-stringify's options: cells quoted when needed, text cells neutralized, one `eol` after every row (default CRLF). */
export function csvOptions(eol = '\r\n') {
  return { record_delimiter: eol, quoted_match: /[\r\n]/, cast: { string: neutralizeCell } };
}
