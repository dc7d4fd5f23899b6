/**
 * Archive downloads (spec section 7): the raw file as archived, and any file or sheet as CSV with formula
 * injection neutralized. Only ids from the archive index name a file, so no request reaches a path outside it.
 */
import { Hono } from 'hono';
import { parse as parseCsv } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';
import { z } from 'zod';
import { downloadFileName } from '../../lib/domain/site/api-responses';
import { toCsv } from '../../lib/domain/text/csv';
import type { ArchivedFile } from '../../lib/domain/report/schemas';
import { readArchive, readArchivedBytes } from '../../storage/archive';
import { refusal } from '../errors';
import { optionalQuery, validate } from '../validate';
import { PRIVATE_NO_STORE, type ApiContext } from './context';

export const FileParams = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, 'expected an archive id (16 lower-case hex digits): take one from /api/excel-files') });
export const SheetQuery = z.object({ sheetId: optionalQuery(z.string().regex(/^\d{1,3}$/, 'expected a sheet number such as 0').transform(Number)) });
const CSV_TYPE = 'text/csv; charset=utf-8';
const FILE_TYPES: Record<ArchivedFile['kind'], string> = { csv: CSV_TYPE, xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

/** /download-excel/{id} and /download-csv/{id}?sheetId=; an archived file never changes under its id, so an open archive caches for a day. */
export function downloadRoutes(context: ApiContext): Hono {
  async function archivedFile(id: string): Promise<ArchivedFile> {
    const file = (await readArchive(context.archiveDir)).find((f) => f.id === id);
    if (file === undefined) throw refusal(404, `No archived file has the id ${id}: take one from /api/excel-files.`);
    return file;
  }

  // With PAYWALL=on a download is Pro's (api.ts checks the session first): no shared cache may keep it.
  const cache: Record<string, string> = context.accounts.paywall ? { 'Cache-Control': PRIVATE_NO_STORE, Vary: 'Cookie' } : { 'Cache-Control': 'public, max-age=86400, immutable' };
  const attachment = (contentType: string, fileName: string): Record<string, string> => ({ 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${fileName}"`, ...cache });

  return new Hono()
    .get('/download-excel/:id', validate('param', FileParams), async (c) => {
      const file = await archivedFile(c.req.valid('param').id);
      const bytes = await readArchivedBytes(context.archiveDir, file);
      return c.body(new Uint8Array(bytes), 200, attachment(FILE_TYPES[file.kind], downloadFileName(file.fileName, file.kind)));
    })
    .get('/download-csv/:id', validate('param', FileParams), validate('query', SheetQuery, '?sheetId=0'), async (c) => {
      const file = await archivedFile(c.req.valid('param').id);
      const sheetId = c.req.valid('query').sheetId ?? file.sheets.find((sheet) => sheet.isActive)?.id ?? 0;
      const sheet = file.sheets.find((s) => s.id === sheetId);
      if (sheet === undefined) throw refusal(404, `${file.fileName} has no sheet ${sheetId}: use one of ${file.sheets.map((s) => s.id).join(', ')}.`);
      const bytes = await readArchivedBytes(context.archiveDir, file);
      const rows = file.kind === 'csv' ? csvRows(bytes) : await sheetRows(bytes, sheetId);
      const name = downloadFileName(file.fileName, 'csv', file.kind === 'xlsx' && file.sheets.length > 1 ? sheet.sheetName : undefined);
      return c.body(toCsv(rows), 200, attachment(CSV_TYPE, name));
    });
}

function csvRows(bytes: Uint8Array): string[][] {
  return parseCsv(Buffer.from(bytes), { bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
}

async function sheetRows(bytes: Uint8Array, sheetId: number): Promise<string[][]> {
  const sheets = await readExcelFile(Buffer.from(bytes));
  const data = (sheets[sheetId]?.data ?? []) as unknown[][];
  return data.map((row) => row.map(cellText));
}

/** A spreadsheet cell as CSV text: dates as yyyy-mm-dd, booleans as TRUE/FALSE, empty as ''. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell);
}
