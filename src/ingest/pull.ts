import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** A file as the source supplied it; one larger than the byte limit is not read, only its size is known. */
export interface PulledFile {
  name: string;
  bytes: Uint8Array;
  /** Set when the file is larger than the limit: its size (or what was read before stopping), and `bytes` is empty. */
  tooLarge?: number;
}

/** What a pull found: the export files, and other files it left alone. */
export interface PullResult {
  files: PulledFile[];
  ignored: string[];
}

const EXPORT_NAME = /\.(csv|xlsx|xls|txt)$/i;
const PULL_TIMEOUT_MS = 60_000;

function fileNameFromResponse(url: URL, response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const fromHeader = match?.[1] ? decodeURIComponent(match[1]) : '';
  const name = basename(fromHeader || decodeURIComponent(url.pathname) || 'export');
  if (EXPORT_NAME.test(name)) return name;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('spreadsheetml')) return `${name}.xlsx`;
  if (type.includes('csv') || type.startsWith('text/')) return `${name}.csv`;
  return name;
}

/**
 * Pulls the day's exports from SIGNALS_SOURCE: every .csv/.xlsx file of a folder (sorted by name),
 * or the one file an http(s) URL answers with.
 */
export async function pullSource(source: string, maxBytes = Number.POSITIVE_INFINITY): Promise<PullResult> {
  if (/^https?:\/\//i.test(source)) {
    const url = new URL(source);
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(PULL_TIMEOUT_MS), redirect: 'follow' });
    } catch (error) {
      throw new Error(`Could not download ${url.href}: ${(error as Error).message}. Check SIGNALS_SOURCE and the network.`);
    }
    if (!response.ok) {
      throw new Error(`Downloading ${url.href} answered ${response.status} ${response.statusText}. Check SIGNALS_SOURCE.`);
    }
    const name = fileNameFromResponse(url, response);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await response.body?.cancel();
      return { files: [{ name, bytes: new Uint8Array(), tooLarge: declared }], ignored: [] };
    }
    const bytes = await readCapped(response, maxBytes);
    return { files: [bytes === null ? { name, bytes: new Uint8Array(), tooLarge: maxBytes + 1 } : { name, bytes }], ignored: [] };
  }
  let entries: string[];
  try {
    if (!(await stat(source)).isDirectory()) {
      return { files: [await readLocal(source, basename(source), maxBytes)], ignored: [] };
    }
    entries = await readdir(source);
  } catch (error) {
    throw new Error(`SIGNALS_SOURCE ${source} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): point it at a folder of exports or an http(s) URL.`);
  }
  const files: PulledFile[] = [];
  const ignored: string[] = [];
  for (const name of entries.sort()) {
    if (name.startsWith('.')) continue;
    const path = join(source, name);
    if (!(await stat(path)).isFile()) continue;
    if (EXPORT_NAME.test(name)) files.push(await readLocal(path, name, maxBytes));
    else ignored.push(name);
  }
  return { files, ignored };
}

async function readLocal(path: string, name: string, maxBytes: number): Promise<PulledFile> {
  const size = (await stat(path)).size;
  if (size > maxBytes) return { name, bytes: new Uint8Array(), tooLarge: size };
  return { name, bytes: await readFile(path) };
}

/** The body, or null as soon as it passes `maxBytes` (a server may send more than its Content-Length says, or none). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream: the rest is never downloaded.
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
