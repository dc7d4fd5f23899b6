/**
 * Reading uploaded exports from a multipart request: at most 10 files of 25 MB each (413 past either),
 * each one's kind told by its content, not its name: an XLSX must really be an OOXML workbook (a ZIP), a CSV must be
 * text. A file whose name says otherwise is given its content's extension. The form is parsed as it streams in
 * (busboy), so a large upload never holds the event loop, and no more than the limits is kept.
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Busboy from '@fastify/busboy';
import { fileTypeFromBuffer } from 'file-type';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_REQUEST_BYTES, megabytes, type FileProblem, type UploadedFile } from '../lib/domain/operator/operator';
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

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The chunks as one buffer, copied a few megabytes a turn so a 25 MB file does not hold the event loop. */
async function joined(chunks: readonly Buffer[], size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  let sinceTurn = 0;
  for (const chunk of chunks) {
    chunk.copy(bytes, at);
    at += chunk.length;
    sinceTurn += chunk.length;
    if (sinceTurn >= 2 * 1024 * 1024) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  return bytes;
}

function isText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 65536).includes(0) && isUtf8(bytes);
}

/** One file's kind by its content; the file under its content's extension, or its problem. */
export async function checkUploadContent(name: string, bytes: Uint8Array): Promise<{ file: UploadedFile; renamed: boolean } | { problem: FileProblem }> {
  const clean = safeName(name);
  // A ZIP's kind is told by its entries, anywhere in it; every other kind by its first bytes.
  const type = bytes.length === 0 ? undefined : await fileTypeFromBuffer(isZip(bytes) ? bytes : bytes.subarray(0, 65536));
  let extension: 'csv' | 'xlsx';
  if (type?.ext === 'xlsx') extension = 'xlsx';
  else if (type?.ext === 'zip') return { problem: { file: clean, message: 'The file is a ZIP archive but not an Excel workbook: upload the .xlsx or .csv export itself.' } };
  else if (type !== undefined) return { problem: { file: clean, message: `The file is ${type.mime} (.${type.ext}), not a CSV or XLSX export: export the signals as .csv or .xlsx.` } };
  else if (bytes.length === 0 || isText(bytes)) extension = 'csv';
  else return { problem: { file: clean, message: 'The file is binary, not CSV text or an XLSX workbook: export the signals as "CSV UTF-8" or .xlsx.' } };
  const named = withExtension(clean, extension);
  return { file: { name: named, bytes }, renamed: named !== clean };
}

/** A file part of the form: its name, its size, and its bytes while it is within the limits (null past them). */
interface ReceivedFile {
  name: string;
  size: number;
  chunks: Buffer[] | null;
}

/** The form's file parts as they stream in; the bytes of a file past the limits are counted, not kept. */
async function receiveFiles(c: Context): Promise<ReceivedFile[]> {
  const files: ReceivedFile[] = [];
  const body = c.req.raw.body;
  if (body === null) return files;
  try {
    // Text fields are not used: they are held to a few KB.
    const form = Busboy({ headers: { 'content-type': c.req.header('content-type')! }, limits: { fieldSize: 16 * 1024, fields: 100 } });
    form.on('file', (_field, stream, filename) => {
      const file: ReceivedFile = { name: filename ?? '', size: 0, chunks: files.length < MAX_UPLOAD_FILES ? [] : null };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
        if (file.size > MAX_UPLOAD_FILE_BYTES) file.chunks = null;
        else file.chunks?.push(chunk);
      });
    });
    await pipeline(Readable.fromWeb(body as WebReadableStream), form);
  } catch (error) {
    throw refusal(400, `The upload is not a readable multipart form (${error instanceof Error ? error.message : String(error)}): send the exports as multipart/form-data, one file field each (curl -F "files=@signals.xlsx").`);
  }
  return files;
}

/** Reads and checks the request's files; throws 415, 400 or 413 for a request that is not a usable upload. */
export async function readUploads(c: Context): Promise<UploadedFiles> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw refusal(415, 'Send the exports as multipart/form-data, one file field each (curl -F "files=@signals.xlsx").');
  }
  const sent = await receiveFiles(c);
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
    const checked = await checkUploadContent(file.name, await joined(file.chunks!, file.size));
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
