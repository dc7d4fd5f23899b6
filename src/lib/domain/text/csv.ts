/**
 * Every CSV the project writes (downloads, sample exports, synthetic universes) goes through csv-stringify with
 * the formula guard of DESIGN.md "Security rules" as its cast (./csv-rules.ts): a text cell that a spreadsheet would
 * run as a formula gets a leading `'`.
 */
import { stringify } from 'csv-stringify/sync';
import { csvOptions } from './csv-rules';

export { neutralizeCell } from './csv-rules';

/** Rows as CSV text: cells quoted when needed, text cells neutralized, one `eol` after every row (default CRLF). */
export function toCsv(rows: readonly (readonly unknown[])[], { eol = '\r\n' }: { eol?: string } = {}): string {
  return stringify(rows as unknown[][], csvOptions(eol));
}
