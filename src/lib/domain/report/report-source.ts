/** Whether the published report is the generated sample data, and the notice every page then shows. */

/** `sample`: generated scores for demonstration; `exports`: the signal exports of SIGNALS_SOURCE. */
export type ReportSource = 'sample' | 'exports';

/** The file the sample generator writes beside its exports: `sha256  name` lines, as `sha256sum` prints them. */
export const SAMPLE_MANIFEST = 'SAMPLE-EXPORTS.sha256';

/** The notice on every page, share image and meta description of a sample build. */
export const SAMPLE_NOTICE = 'Sample data: scores are generated for demonstration';

/** The manifest's lines as `sha256  name`, sorted by name. */
export function sampleManifest(files: ReadonlyMap<string, string>): string {
  return [...files].sort(([a], [b]) => a.localeCompare(b)).map(([name, sha256]) => `${sha256}  ${name}\n`).join('');
}

/** Name -> SHA-256 of a manifest; lines that are not `hash  name` are skipped. */
export function parseSampleManifest(text: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (match) files.set(match[2]!, match[1]!);
  }
  return files;
}

/** A meta description with the sample notice in front when the report is sample data. */
export function withSampleNotice(text: string, source: ReportSource): string {
  return source === 'sample' ? `${SAMPLE_NOTICE}. ${text}` : text;
}
