import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseOrExplain } from '../lib/domain/text/explain';
import { ArchivedFileSchema, type ArchivedFile } from '../lib/domain/report/schemas';

/** A file an operator withdrew (`npm run archive -- withdraw FILE`): the daily job skips its bytes from then on. */
const WithdrawnFileSchema = z.object({ sha256: z.string(), id: z.string(), fileName: z.string(), withdrawnAt: z.string() });

/** A withdrawn file's record. */
export type WithdrawnFile = z.infer<typeof WithdrawnFileSchema>;

/** The archive's list of accepted files, oldest first, and of the files withdrawn from it. */
const ArchiveIndexSchema = z.object({ version: z.literal(1), files: z.array(ArchivedFileSchema), withdrawn: z.array(WithdrawnFileSchema).default([]) });

/** The whole archive index. */
export type ArchiveIndex = z.infer<typeof ArchiveIndexSchema>;

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

/** Reads the archive's list of accepted files; an archive that does not exist yet is empty. */
export async function readArchive(archiveDir: string): Promise<ArchivedFile[]> {
  return (await readArchiveIndex(archiveDir)).files;
}

/** Reads the archive index with the withdrawn files; an archive that does not exist yet is empty. */
export async function readArchiveIndex(archiveDir: string): Promise<ArchiveIndex> {
  let text: string;
  try {
    text = await readFile(join(archiveDir, INDEX), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, files: [], withdrawn: [] };
    throw error;
  }
  try {
    return parseOrExplain(ArchiveIndexSchema, JSON.parse(text), `The archive index ${join(archiveDir, INDEX)}`);
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
  withdraw: { file: ArchivedFile; withdrawnAt: string } | null = null,
): Promise<void> {
  if (added.length === 0 && withdraw === null) return;
  await mkdir(join(archiveDir, FILES), { recursive: true });
  for (const { file, bytes } of added) {
    await writeFile(archivedPath(archiveDir, file), bytes);
  }
  const { withdrawn } = await readArchiveIndex(archiveDir);
  if (withdraw !== null) {
    const { sha256, id, fileName } = withdraw.file;
    withdrawn.push({ sha256, id, fileName, withdrawnAt: withdraw.withdrawnAt });
  }
  const kept = withdraw === null ? existing : existing.filter((file) => file.id !== withdraw.file.id);
  const index: ArchiveIndex = { version: 1, files: [...kept, ...added.map((a) => a.file)], withdrawn };
  const temp = join(archiveDir, `${INDEX}.${process.pid}.tmp`);
  await writeFile(temp, `${JSON.stringify(index, null, 1)}\n`);
  await rename(temp, join(archiveDir, INDEX));
  if (withdraw !== null) await rm(archivedPath(archiveDir, withdraw.file), { force: true });
}
