/**
 * Reads what an XLSX declares before any sheet is expanded into cells: the sizes its zip directory gives the sheet
 * and shared-string parts, each sheet's `<dimension>` and furthest cell reference, and the longest shared string.
 * A 2 KB workbook with one cell at XFD1048576 would otherwise expand into 17 billion cells.
 */
import { inflateRawSync } from 'node:zlib';
import { ExportError, type ExportLimits } from '../lib/domain/report/export';
import { excerpt, stripInvisible } from '../lib/domain/text/text';

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function unreadable(detail: string): ExportError {
  return new ExportError({ message: `The workbook cannot be read: ${detail}. Save it again as .xlsx.` });
}

/** The entries of a zip's central directory (no zip64: a workbook within the limits never needs it). */
function zipEntries(bytes: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i -= 1) {
    if (bytes.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end === -1) throw unreadable('its zip directory is missing');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw unreadable('its zip directory is damaged');
    const nameLength = bytes.readUInt16LE(at + 28);
    entries.push({
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/** An entry's text, never more than `maxBytes` unpacked (the directory's sizes may lie). */
function entryText(bytes: Buffer, entry: ZipEntry, maxBytes: number): string {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw unreadable(`its part ${excerpt(entry.name)} is damaged`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.toString('utf8');
  if (entry.method !== 8) throw unreadable(`its part ${excerpt(entry.name)} uses an unknown compression`);
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(entry.name, `more than ${number(maxBytes)}`, maxBytes);
    throw unreadable(`its part ${excerpt(entry.name)} cannot be unpacked`);
  }
}

const number = (value: number) => value.toLocaleString('en-US');

function tooLarge(part: string, size: string, limit: number): ExportError {
  return new ExportError({
    message: `The workbook's part ${excerpt(part)} unpacks to ${size} bytes; the limit is ${number(limit)} bytes unpacked (EXPORT_MAX_UNPACKED_BYTES). Split the export into smaller files.`,
  });
}

/** Column letters to a 1-based number (A = 1, XFD = 16384). */
function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}

/** The furthest row and column a sheet declares or uses. */
function sheetExtent(xml: string): { rows: number; columns: number; ref: string } {
  let rows = 0;
  let columns = 0;
  let ref = '';
  const dimension = /<(?:\w+:)?dimension\b[^>]*\bref="([^"]*)"/.exec(xml);
  if (dimension) {
    ref = dimension[1]!;
    const last = /([A-Z]{1,3})(\d+)$/.exec(ref.toUpperCase());
    if (last) {
      columns = columnNumber(last[1]!);
      rows = Number(last[2]);
    }
  }
  for (const cell of xml.matchAll(/<(?:\w+:)?c\b[^>]*?\br="([A-Z]{1,3})(\d+)"/g)) {
    columns = Math.max(columns, columnNumber(cell[1]!));
    rows = Math.max(rows, Number(cell[2]));
  }
  let count = 0;
  for (const row of xml.matchAll(/<(?:\w+:)?row\b([^>]*)>/g)) {
    // Rows may leave out their number: then they are counted.
    count += 1;
    const number = /\br="(\d+)"/.exec(row[1]!)?.[1];
    rows = Math.max(rows, count, number === undefined ? 0 : Number(number));
  }
  return { rows, columns, ref };
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name] ?? whole;
  });
}

/** Refuses a workbook whose shared or inline strings (each `items` match: its <t> runs) hold a text over EXPORT_MAX_CELL_CHARS. */
function checkStrings(xml: string, items: RegExp, limits: ExportLimits): void {
  for (const item of xml.matchAll(items)) {
    let text = '';
    for (const t of item[1]!.matchAll(/<(?:\w+:)?t\b[^>]*>([\s\S]*?)<\/(?:\w+:)?t>/g)) text += t[1];
    const length = stripInvisible(decodeXml(text)).length;
    if (length > limits.maxCellChars) {
      throw new ExportError({
        message: `A text cell of the workbook holds ${number(length)} characters; the limit is ${number(limits.maxCellChars)} a cell (EXPORT_MAX_CELL_CHARS). Shorten that cell.`,
      });
    }
  }
}

/** Refuses a workbook whose parts, declared sheet sizes or shared strings exceed `limits`, before it is expanded. */
export function probeWorkbook(bytes: Uint8Array, limits: ExportLimits): void {
  try {
    probe(bytes, limits);
  } catch (error) {
    // A damaged zip makes the readers above run off its end: that is the operator's "cannot be read", not a crash.
    if (error instanceof ExportError) throw error;
    throw unreadable('its zip structure is damaged');
  }
}

function probe(bytes: Uint8Array, limits: ExportLimits): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = zipEntries(buffer);
  const parts = entries.filter((e) => /^xl\/(worksheets\/[^/]+\.xml|sharedStrings\.xml)$/i.test(e.name));
  let unpacked = 0;
  for (const part of parts) {
    unpacked += part.size;
    if (unpacked > limits.maxUnpackedBytes) throw tooLarge(part.name, number(part.size), limits.maxUnpackedBytes);
  }
  let cells = 0;
  for (const part of parts) {
    const xml = entryText(buffer, part, limits.maxUnpackedBytes);
    if (/sharedStrings/i.test(part.name)) {
      checkStrings(xml, /<(?:\w+:)?si>([\s\S]*?)<\/(?:\w+:)?si>/g, limits);
      continue;
    }
    // A sheet may hold its text in the cells themselves (inline strings), the header's as well as the rows'.
    checkStrings(xml, /<(?:\w+:)?is>([\s\S]*?)<\/(?:\w+:)?is>/g, limits);
    const sheet = excerpt(part.name.replace(/^xl\/worksheets\//i, ''));
    const { rows, columns, ref } = sheetExtent(xml);
    const declared = ref ? ` (dimension ${excerpt(ref)})` : '';
    if (rows > limits.maxRows + 1) {
      throw new ExportError({ message: `The sheet ${sheet} reaches row ${number(rows)}${declared}; the limit is ${number(limits.maxRows)} data rows a file (EXPORT_MAX_ROWS). Delete the empty rows below the data or split the export.` });
    }
    if (columns > limits.maxColumns) {
      throw new ExportError({ message: `The sheet ${sheet} reaches column ${number(columns)}${declared}; the limit is ${number(limits.maxColumns)} columns (EXPORT_MAX_COLUMNS). Delete the empty columns right of the data.` });
    }
    cells += rows * columns;
    if (cells > (limits.maxRows + 1) * limits.maxColumns) {
      throw new ExportError({ message: `The workbook's sheets hold ${number(cells)} cells together; the limit is ${number((limits.maxRows + 1) * limits.maxColumns)} (EXPORT_MAX_ROWS x EXPORT_MAX_COLUMNS). Remove the sheets the export does not need.` });
    }
  }
}
