/**
 * Where the published report comes from: `sample` when the file that supplied its latest report date is one of the
 * generated sample exports, else `exports`. The sample generator (`npm run sample`) lists the SHA-256 of every file
 * it writes in SAMPLE-EXPORTS.sha256 beside them; a file whose hash is listed there is sample data wherever it was
 * pulled from (the bundled data/sample-exports, a copy of it, or a URL serving one of them), and a real export can
 * never match.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config';
import { parseSampleManifest, SAMPLE_MANIFEST, type ReportSource } from '../lib/domain/report/report-source';
import type { ArchivedFile } from '../lib/domain/report/schemas';

/** The bundled sample exports, whose manifest is always known. */
const BUNDLED_SAMPLES = join(PROJECT_ROOT, 'data/sample-exports');

async function manifestHashes(folder: string): Promise<Set<string>> {
  const text = await readFile(join(folder, SAMPLE_MANIFEST), 'utf8').catch(() => '');
  return new Set(parseSampleManifest(text).values());
}

/** The source of the report dated `reportDate`, built from `files` (in archive order: a later file wins a date). */
export async function reportSource(files: readonly ArchivedFile[], reportDate: string, source: string): Promise<ReportSource> {
  const supplier = files.findLast((file) => file.reportDates.includes(reportDate));
  if (supplier === undefined) return 'exports';
  const folders = /^https?:\/\//i.test(source) ? [BUNDLED_SAMPLES] : [BUNDLED_SAMPLES, source];
  for (const folder of folders) if ((await manifestHashes(folder)).has(supplier.sha256)) return 'sample';
  return 'exports';
}
