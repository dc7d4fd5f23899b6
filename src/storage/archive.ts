import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseOrExplain } from '../lib/domain/explain';
import { ArchivedFileSchema, type ArchivedFile } from '../lib/domain/schemas';

/** The archive's list of accepted files, oldest first. */
const ArchiveIndexSchema = z.object({ version: z.literal(1), files: z.array(ArchivedFileSchema) });

const INDEX = 'index.json';
const FILES = 'files';

/** SHA-256 of a file's bytes, in hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where an archived file's bytes live. */
export function archivedPath(archiveDir: string, file: Pick<ArchivedFile, 'id' | 'kind'>): string {
  return join(archiveDir, FILES, `${file.id}.${file.kind}`);
}

/** Reads the archive index; an archive that does not exist yet is empty. */
export async function readArchive(archiveDir: string): Promise<ArchivedFile[]> {
  let text: string;
  try {
    text = await readFile(join(archiveDir, INDEX), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    return parseOrExplain(ArchiveIndexSchema, JSON.parse(text), `The archive index ${join(archiveDir, INDEX)}`).files;
  } catch (error) {
    throw new Error(`${(error as Error).message}. Restore it from a backup, or delete the archive folder to rebuild it from SIGNALS_SOURCE.`);
  }
}

/** Reads the bytes of an archived file. */
export function readArchivedBytes(archiveDir: string, file: ArchivedFile): Promise<Buffer> {
  return readFile(archivedPath(archiveDir, file));
}

/**
 * Adds accepted files to the archive: their bytes first, then the index, replaced in one rename so a crash
 * never leaves an index that names a missing file.
 */
export async function commitToArchive(
  archiveDir: string,
  existing: ArchivedFile[],
  added: { file: ArchivedFile; bytes: Uint8Array }[],
): Promise<void> {
  if (added.length === 0) return;
  await mkdir(join(archiveDir, FILES), { recursive: true });
  for (const { file, bytes } of added) {
    await writeFile(archivedPath(archiveDir, file), bytes);
  }
  const index = { version: 1 as const, files: [...existing, ...added.map((a) => a.file)] };
  const temp = join(archiveDir, `${INDEX}.${process.pid}.tmp`);
  await writeFile(temp, `${JSON.stringify(index, null, 1)}\n`);
  await rename(temp, join(archiveDir, INDEX));
}
