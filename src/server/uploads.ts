/**
 * Reading uploaded exports from a multipart request (issue 13): at most 10 files of 25 MB each (413 past either),
 * each one's kind told by its content, not its name: an XLSX must really be an OOXML workbook (a ZIP), a CSV must be
 * text. A file whose name says otherwise is given its content's extension.
 */
import { fileTypeFromBuffer } from 'file-type';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_REQUEST_BYTES, megabytes, type FileProblem, type UploadedFile } from '../lib/domain/operator';
import { refusal } from './errors';

/** 413 for a request body over the limit of 10 files of 25 MB, before it is read into memory. */
export const uploadBodyLimit: MiddlewareHandler = bodyLimit({
  maxSize: MAX_UPLOAD_REQUEST_BYTES,
  onError: (c) =>
    c.json({ error: `The request is larger than ${megabytes(MAX_UPLOAD_REQUEST_BYTES)}: send at most ${MAX_UPLOAD_FILES} files of ${megabytes(MAX_UPLOAD_FILE_BYTES)} each.` }, 413, {
      'Cache-Control': 'no-store',
    }),
});

/** The files of a request: accepted files, and the problems of the others. */
export interface UploadedFiles {
  files: UploadedFile[];
  problems: FileProblem[];
  /** Files renamed to their content's extension. */
  notes: string[];
}

/** A name safe to write in a folder: no path, only plain characters. */
function safeName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._ -]/g, '_').replace(/^[.\s]+/, '').trim().slice(-120);
  return cleaned === '' ? 'export' : cleaned;
}

function withExtension(name: string, extension: 'csv' | 'xlsx'): string {
  if (extension === 'csv' && /\.(csv|txt)$/i.test(name)) return name;
  if (extension === 'xlsx' && /\.xlsx$/i.test(name)) return name;
  return `${name.replace(/\.[A-Za-z0-9]{1,5}$/, '')}.${extension}`;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 65536).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** One file's kind by its content; the file under its content's extension, or its problem. */
export async function checkUploadContent(name: string, bytes: Uint8Array): Promise<{ file: UploadedFile; renamed: boolean } | { problem: FileProblem }> {
  const clean = safeName(name);
  const type = bytes.length === 0 ? undefined : await fileTypeFromBuffer(bytes);
  let extension: 'csv' | 'xlsx';
  if (type?.ext === 'xlsx') extension = 'xlsx';
  else if (type?.ext === 'zip') return { problem: { file: clean, message: 'The file is a ZIP archive but not an Excel workbook: upload the .xlsx or .csv export itself.' } };
  else if (type !== undefined) return { problem: { file: clean, message: `The file is ${type.mime} (.${type.ext}), not a CSV or XLSX export: export the signals as .csv or .xlsx.` } };
  else if (bytes.length === 0 || isText(bytes)) extension = 'csv';
  else return { problem: { file: clean, message: 'The file is binary, not CSV text or an XLSX workbook: export the signals as "CSV UTF-8" or .xlsx.' } };
  const named = withExtension(clean, extension);
  return { file: { name: named, bytes }, renamed: named !== clean };
}

/** Reads and checks the request's files; throws 415, 400 or 413 for a request that is not a usable upload. */
export async function readUploads(c: Context): Promise<UploadedFiles> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw refusal(415, 'Send the exports as multipart/form-data, one file field each (curl -F "files=@signals.xlsx").');
  }
  const body = await c.req.parseBody({ all: true });
  const sent = Object.values(body).flat().filter((value): value is File => value instanceof File);
  if (sent.length === 0) throw refusal(400, 'The request has no file: attach at least one .csv or .xlsx export (curl -F "files=@signals.xlsx").');
  if (sent.length > MAX_UPLOAD_FILES) throw refusal(413, `${sent.length} files in one request: send at most ${MAX_UPLOAD_FILES} at a time.`);
  const large = sent.filter((file) => file.size > MAX_UPLOAD_FILE_BYTES);
  if (large.length > 0) {
    throw refusal(413, `${large.map((f) => `${safeName(f.name)} is ${megabytes(f.size)}`).join('; ')}: a file may be at most ${megabytes(MAX_UPLOAD_FILE_BYTES)}.`);
  }
  const files: UploadedFile[] = [];
  const problems: FileProblem[] = [];
  const notes: string[] = [];
  for (const file of sent) {
    const checked = await checkUploadContent(file.name, new Uint8Array(await file.arrayBuffer()));
    if ('problem' in checked) {
      problems.push(checked.problem);
      continue;
    }
    if (files.some((f) => f.name === checked.file.name)) {
      problems.push({ file: checked.file.name, message: 'Two files of this upload have this name: rename one of them.' });
      continue;
    }
    if (checked.renamed) notes.push(`${safeName(file.name)} is ${checked.file.name.endsWith('.xlsx') ? 'an Excel workbook' : 'CSV text'} by its content: it is read as ${checked.file.name}.`);
    files.push(checked.file);
  }
  return { files, problems, notes };
}
