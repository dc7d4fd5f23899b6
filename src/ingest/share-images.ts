import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, copyFile, mkdir, readdir, rm, utimes } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { shareImageText, type ShareImageInput } from '../lib/domain/detail';
import type { SiteData } from '../lib/domain/schemas';

/** Where rendered share images are kept between runs, by the hash of what they show (SHARE_IMAGE_CACHE). */
export const DEFAULT_SHARE_IMAGE_CACHE = 'data/build/share-images';

/** Bump when the drawing changes, so every cached image is made again. */
const TEMPLATE_VERSION = 1;

const COLORS = { bullish: '#22c55e', bearish: '#ef4444', neutral: '#9ca3af' } as const;

const FONT_CANDIDATES: readonly { family: string; files: string[] }[] = [
  { family: 'DejaVu Sans', files: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'] },
  { family: 'Liberation Sans', files: ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'] },
];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The 1200x630 SVG of a ticker's share image: ticker, company, C-Score, classification and date. */
export function shareImageSvg(input: ShareImageInput, siteName: string, fontFamily: string): string {
  const t = shareImageText(input, siteName);
  const color = COLORS[t.tone];
  const company = t.company.length > 42 ? `${t.company.slice(0, 41)}…` : t.company;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" font-family="${escapeXml(fontFamily)}">` +
    `<rect width="1200" height="630" fill="#0c0d10"/><rect width="1200" height="14" fill="${color}"/>` +
    `<text x="80" y="190" font-size="120" font-weight="bold" fill="#ffffff">${escapeXml(t.ticker)}</text>` +
    `<text x="80" y="265" font-size="44" fill="#d1d5db">${escapeXml(company)}</text>` +
    `<text x="80" y="360" font-size="36" fill="#9ca3af">C-Score</text>` +
    `<text x="80" y="480" font-size="130" font-weight="bold" fill="${color}">${escapeXml(t.score)}</text>` +
    `<rect x="700" y="385" width="360" height="100" rx="20" fill="none" stroke="${color}" stroke-width="4"/>` +
    `<text x="880" y="455" font-size="56" font-weight="bold" fill="${color}" text-anchor="middle">${escapeXml(t.classification)}</text>` +
    `<text x="80" y="570" font-size="32" fill="#9ca3af">${escapeXml(t.footer)}</text></svg>`;
}

/** What a run did: images drawn, images reused from the cache, seconds. */
export interface ShareImageSummary {
  rendered: number;
  reused: number;
  seconds: number;
}

/**
 * Draws the share image of every ticker of the latest report into the cache (only those whose text changed),
 * while `build` runs; then places them in the build as og/signal/{TICKER}.png and drops unused cache entries.
 */
export async function withShareImages(data: SiteData, clientDir: string, build: () => Promise<void>, cacheDir = process.env.SHARE_IMAGE_CACHE || DEFAULT_SHARE_IMAGE_CACHE): Promise<ShareImageSummary> {
  const started = performance.now();
  const siteName = process.env.SITE_NAME || 'C-Score Signals';
  const cache = resolve(cacheDir);
  await mkdir(cache, { recursive: true });
  const font = FONT_CANDIDATES.find((f) => f.files.every((file) => existsSync(file)));
  const family = font?.family ?? 'sans-serif';
  const images = data.history.latest.map((record) => {
    const svg = shareImageSvg({ ticker: record.ticker, companyName: record.companyName, cScore: record.cScore, reportDate: record.reportDate }, siteName, family);
    const hash = createHash('sha256').update(`${TEMPLATE_VERSION}\0${svg}`).digest('hex').slice(0, 32);
    return { ticker: record.ticker, svg, path: join(cache, `${hash}.png`) };
  });
  const missing = images.filter((image) => !existsSync(image.path));
  const rendering = renderAll(missing, font?.files ?? [], family);
  await Promise.all([build(), rendering]);

  const outDir = join(clientDir, 'og', 'signal');
  await mkdir(outDir, { recursive: true });
  const now = new Date();
  await Promise.all(
    images.map(async (image) => {
      const target = join(outDir, `${image.ticker}.png`);
      // A hard link costs no space; a cache on another file system gets a copy.
      await link(image.path, target).catch(() => copyFile(image.path, target));
      await utimes(image.path, now, now);
    }),
  );
  const used = new Set(images.map((image) => image.path));
  for (const name of await readdir(cache)) {
    const path = join(cache, name);
    if (!used.has(path) && name.endsWith('.png')) await rm(path, { force: true });
  }
  return { rendered: missing.length, reused: images.length - missing.length, seconds: (performance.now() - started) / 1000 };
}

/** Renders SVGs to PNG files on worker threads, one fewer than the cores (at least one) so the build keeps a core. */
async function renderAll(jobs: { svg: string; path: string }[], fontFiles: string[], fontFamily: string): Promise<void> {
  if (jobs.length === 0) return;
  const count = Math.max(1, Math.min(availableParallelism() - 1, Math.ceil(jobs.length / 50)));
  const workerUrl = new URL('./share-image-worker.mjs', import.meta.url);
  const batch = 25;
  let next = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const worker = new Worker(workerUrl, { workerData: { fontFiles, fontFamily } });
      try {
        while (next < jobs.length) {
          const slice = jobs.slice(next, next + batch);
          next += batch;
          await new Promise<void>((resolvePromise, reject) => {
            const onError = (error: Error) => reject(error);
            worker.once('error', onError);
            worker.once('message', () => {
              worker.off('error', onError);
              resolvePromise();
            });
            worker.postMessage(slice.map(({ svg, path }) => ({ svg, path })));
          });
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
}
