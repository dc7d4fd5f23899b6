/**
 * A matrix of numbers kept between runs of the daily job: a JSON header, then the values as 64-bit floats
 * (NaN: no value). Five years of 6,000 tickers are 7.5 million values: 60 MB read in one call, where 1,260 JSON entries
 * or 7.5 million database rows took tens of seconds. The file is written whole and renamed into place; one that does
 * not read back whole (truncated, or another format) reads as absent, and its owner makes it again from the source.
 */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

// "CSM1": the format of this module; a file without it is not one of ours.
const MAGIC = 0x314d5343;
const PREFIX = 8;

/** A matrix file's content: what its owner keeps in the header, and the values. */
export interface MatrixFile<H> {
  header: H;
  values: Float64Array;
}

/** Writes `header` and `values` to `path` (a temporary file renamed into place, so a reader never sees half of it). */
export async function writeMatrixFile(path: string, header: unknown, values: Float64Array): Promise<void> {
  const json = Buffer.from(JSON.stringify(header));
  // The values start on an 8-byte boundary, so they are read in place as a Float64Array.
  const start = Math.ceil((PREFIX + json.length) / 8) * 8;
  const head = Buffer.alloc(start, 0x20);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(json.length, 4);
  json.copy(head, PREFIX);
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  // The values are written from where they are: no second copy of tens of MB.
  const file = await open(temp, 'w');
  try {
    const body = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
    for (let done = 0, total = start + body.length; done < total; ) {
      const { bytesWritten } = await file.writev(done < start ? [head.subarray(done), body] : [body.subarray(done - start)]);
      done += bytesWritten;
    }
  } finally {
    await file.close();
  }
  await rename(temp, path);
}

/**
 * The matrix file at `path`, or null when it is missing or does not read back whole; `valueCount` says how many values
 * its header promises, and a file of another length is refused.
 */
export async function readMatrixFile<H>(path: string, valueCount: (header: H) => number | null): Promise<MatrixFile<H> | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return null;
  }
  if (bytes.length < PREFIX || bytes.readUInt32LE(0) !== MAGIC) return null;
  const length = bytes.readUInt32LE(4);
  if (PREFIX + length > bytes.length) return null;
  let header: H;
  try {
    header = JSON.parse(bytes.subarray(PREFIX, PREFIX + length).toString('utf8')) as H;
  } catch {
    return null;
  }
  const count = valueCount(header);
  const start = Math.ceil((PREFIX + length) / 8) * 8;
  if (count === null || bytes.length !== start + count * 8) return null;
  // A large file's Buffer has memory of its own, read in place; a Buffer at an odd offset of a shared pool is copied.
  if ((bytes.byteOffset + start) % 8 === 0) return { header, values: new Float64Array(bytes.buffer, bytes.byteOffset + start, count) };
  const values = new Float64Array(count);
  Buffer.from(values.buffer).set(bytes.subarray(start));
  return { header, values };
}

/** A header field's check: an array of strings. */
export const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * One list per key, aligned with a matrix row of `width` values (NaN: null), made when it is read and not held: five
 * years of 6,000 tickers are 7.5 million values, 60 MB in the matrix and three times that as lists of numbers, which
 * the daily job would otherwise keep through the whole build. `rows` gives each key's row; with `skipEmpty`, a key whose
 * row holds no value is left out.
 */
export function rowLists(rows: Iterable<[string, number]>, values: Float64Array, width: number, skipEmpty = false): Record<string, (number | null)[]> {
  const lists: Record<string, (number | null)[]> = {};
  for (const [key, row] of rows) {
    const series = values.subarray(row * width, (row + 1) * width);
    if (skipEmpty && series.every((value) => Number.isNaN(value))) continue;
    Object.defineProperty(lists, key, { enumerable: true, get: () => Array.from(series, (value) => (Number.isNaN(value) ? null : value)) });
  }
  return lists;
}
