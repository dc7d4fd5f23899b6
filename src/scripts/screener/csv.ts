/** A screen's result as CSV in the browser: csv-stringify's browser build with the project's CSV rules (formula guard). */
import { stringify } from 'csv-stringify/browser/esm/sync';
import { csvOptions } from '../../lib/domain/text/csv-rules';

export function toBrowserCsv(rows: readonly (readonly unknown[])[]): string {
  return stringify(rows as unknown[][], csvOptions());
}
