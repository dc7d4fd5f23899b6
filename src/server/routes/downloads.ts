/**
 * Archive downloads (spec section 7): the raw file as archived, and any file or sheet as CSV with formula
 * injection neutralized. Only ids from the archive index name a file, so no request reaches a path outside it.
 */
import type { Hono } from 'hono';
import { parse as parseCsv } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';
import { downloadFileName } from '../../lib/domain/api-responses';
import { toCsv } from '../../lib/domain/csv';
import type { ArchivedFile } from '../../lib/domain/schemas';
import { readArchive, readArchivedBytes } from '../../storage/archive';
import { mediaTypeFor } from '../http';
import { markSecured, SECURITY_HEADERS } from '../headers';
import { jsonError, type ApiContext } from './context';

const ARCHIVE_ID = /^[0-9a-f]{16}$/;

/** Mounts /download-excel/{id} and /download-csv/{id}?sheetId= on the API router. */
export function downloadRoutes(api: Hono, context: ApiContext): void {
  async function archivedFile(id: string): Promise<ArchivedFile | Response> {
    if (!ARCHIVE_ID.test(id)) return jsonError(400, `The file id "${id.slice(0, 40)}" is not an archive id (16 lower-case hex digits): take one from /api/excel-files.`);
    const file = (await readArchive(context.archiveDir)).find((f) => f.id === id);
    return file ?? jsonError(404, `No archived file has the id ${id}: take one from /api/excel-files.`);
  }

  api.get('/download-excel/:id', async (c) => {
    const file = await archivedFile(c.req.param('id'));
    if (file instanceof Response) return file;
    const bytes = await readArchivedBytes(context.archiveDir, file);
    return attachment(new Uint8Array(bytes), mediaTypeFor(`x.${file.kind}`).type, downloadFileName(file.fileName, file.kind));
  });

  api.get('/download-csv/:id', async (c) => {
    const file = await archivedFile(c.req.param('id'));
    if (file instanceof Response) return file;
    const rawSheet = c.req.query('sheetId');
    const active = file.sheets.find((sheet) => sheet.isActive)?.id ?? 0;
    const sheetId = rawSheet === undefined || rawSheet === '' ? active : /^\d{1,3}$/.test(rawSheet) ? Number(rawSheet) : null;
    if (sheetId === null) return jsonError(400, `The sheetId "${rawSheet!.slice(0, 20)}" is not a sheet number: use one of ${file.sheets.map((s) => s.id).join(', ')}.`);
    const sheet = file.sheets.find((s) => s.id === sheetId);
    if (sheet === undefined) return jsonError(404, `${file.fileName} has no sheet ${sheetId}: use one of ${file.sheets.map((s) => s.id).join(', ')}.`);
    const bytes = await readArchivedBytes(context.archiveDir, file);
    const rows = file.kind === 'csv' ? csvRows(bytes) : await sheetRows(bytes, sheetId);
    const csv = toCsv(rows);
    const name = downloadFileName(file.fileName, 'csv', file.kind === 'xlsx' && file.sheets.length > 1 ? sheet.sheetName : undefined);
    return attachment(new TextEncoder().encode(csv), 'text/csv; charset=utf-8', name);
  });
}

function attachment(body: Uint8Array<ArrayBuffer>, contentType: string, fileName: string): Response {
  return markSecured(
    new Response(body, {
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': contentType,
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'public, max-age=86400, immutable',
      },
    }),
  );
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
