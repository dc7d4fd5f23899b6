import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rm, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import { constants as zlib, crc32, deflateSync } from 'node:zlib';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { shareImageText, type ShareImageInput } from '../lib/domain/signals/detail';
import type { SignalRecord } from '../lib/domain/report/schemas';
import type { ReportSource } from '../lib/domain/report/report-source';
import { escapeHtml } from '../lib/domain/text/text';

/** Size of a share image (Open Graph's large image). */
const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** Bump when the drawing changes, so every cached image is made again. */
const TEMPLATE_VERSION = 3;

const BACKGROUND = '#0c0d10';
const TONE_COLORS = { bullish: '#22c55e', bearish: '#ef4444', neutral: '#9ca3af' } as const;
type Tone = keyof typeof TONE_COLORS;

const FONT_CANDIDATES: readonly { family: string; files: string[] }[] = [
  { family: 'DejaVu Sans', files: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'] },
  { family: 'Liberation Sans', files: ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'] },
];

/** A text style of the image: font size and weight, and which palette colour it uses. */
interface Style {
  size: number;
  bold: boolean;
  color: 0 | 1 | 2 | 3;
}

// Palette colours: 0 white (ticker), 1 light grey (company), 2 grey (labels), 3 the tone's colour.
const STYLES = {
  ticker: { size: 120, bold: true, color: 0 },
  company: { size: 44, bold: false, color: 1 },
  label: { size: 36, bold: false, color: 2 },
  score: { size: 130, bold: true, color: 3 },
  classification: { size: 56, bold: true, color: 3 },
  footer: { size: 32, bold: false, color: 2 },
  notice: { size: 34, bold: true, color: 0 },
} as const satisfies Record<string, Style>;

/** Coverage levels per colour: a palette image of 1 + 4 x 15 colours, a quarter of RGBA's bytes to compress. */
const LEVELS = 15;

interface Glyph {
  advance: number;
  /** Ink box relative to the pen position on the baseline. */
  dx: number;
  dy: number;
  w: number;
  h: number;
  /** Coverage level 0..15 per pixel of the ink box. */
  levels: Uint8Array;
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Draws share images fast enough for thousands of tickers a day: each glyph of each style is rasterized once by
 * resvg, then every image is composed from glyphs into palette indices and written as an indexed PNG
 * (about 2 ms of CPU an image, measured on 600, where resvg plus its own PNG encoder takes about 55 ms).
 */
class ShareImageRenderer {
  private readonly glyphs = new Map<string, Glyph>();
  // By tone and classification: a locked ticker's neutral tone carries "Top signal", never another image's "Neutral".
  private readonly templates = new Map<string, Uint8Array>();
  // One canvas and one PNG row buffer for every image. Allocating 1.5 MB of buffers an image made V8 run a full
  // collection every few dozen images. In the daily job, whose heap holds years of history, that tripled the time the
  // images took.
  private readonly canvas = new Uint8Array(SHARE_IMAGE_SIZE.width * SHARE_IMAGE_SIZE.height);
  private readonly rows = Buffer.alloc((SHARE_IMAGE_SIZE.width + 1) * SHARE_IMAGE_SIZE.height);
  private readonly font: ResvgRenderOptions['font'];

  constructor(
    private readonly family: string,
    fontFiles: string[],
  ) {
    this.font = fontFiles.length > 0 ? { loadSystemFonts: false, fontFiles, defaultFontFamily: family } : { loadSystemFonts: true };
  }

  private svgText(text: string, style: Style, x: number, y: number, width: number, height: number): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="${x}" y="${y}" font-family="${escapeHtml(this.family)}" font-size="${style.size}" font-weight="${style.bold ? 'bold' : 'normal'}" fill="#fff" xml:space="preserve">${escapeHtml(text)}</text></svg>`;
  }

  private inkWidth(text: string, style: Style): number {
    const box = new Resvg(this.svgText(text, style, 0, style.size * 1.5, style.size * 6, style.size * 2), { font: this.font }).getBBox();
    return box ? box.x + box.width : 0;
  }

  private glyph(char: string, style: Style): Glyph {
    const key = `${style.size}${style.bold ? 'b' : 'r'}${char}`;
    const cached = this.glyphs.get(key);
    if (cached) return cached;
    // The advance is measured between two 'H's, whose ink is the same with and without the glyph between them.
    const advance = Math.max(0, this.inkWidth(`H${char}H`, style) - this.inkWidth('HH', style));
    const pad = Math.ceil(style.size * 0.5);
    const width = Math.ceil(style.size * 2);
    const height = Math.ceil(style.size * 2);
    const baseline = Math.ceil(style.size * 1.4);
    const image = new Resvg(this.svgText(char, style, pad, baseline, width, height), { font: this.font }).render();
    const pixels = image.pixels;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (pixels[(y * width + x) * 4 + 3]! > 8) {
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
      }
    }
    const w = x1 >= x0 ? x1 - x0 + 1 : 0;
    const h = y1 >= y0 ? y1 - y0 + 1 : 0;
    const levels = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) levels[y * w + x] = Math.round((pixels[((y + y0) * width + x + x0) * 4 + 3]! * LEVELS) / 255);
    }
    const glyph = { advance, dx: x0 - pad, dy: y0 - baseline, w, h, levels };
    this.glyphs.set(key, glyph);
    return glyph;
  }

  /** Width of a text in a style, in pixels. */
  measure(text: string, style: Style): number {
    let width = 0;
    for (const char of text) width += this.glyph(char, style).advance;
    return width;
  }

  /** Writes a text's glyphs into the index buffer, pen at (x, baseline y). */
  draw(target: Uint8Array, text: string, style: Style, x: number, y: number): void {
    const { width, height } = SHARE_IMAGE_SIZE;
    const base = 1 + style.color * LEVELS;
    let pen = x;
    for (const char of text) {
      const g = this.glyph(char, style);
      const left = Math.round(pen + g.dx);
      const top = Math.round(y + g.dy);
      for (let gy = 0; gy < g.h; gy++) {
        const py = top + gy;
        if (py < 0 || py >= height) continue;
        for (let gx = 0; gx < g.w; gx++) {
          const level = g.levels[gy * g.w + gx]!;
          const px = left + gx;
          if (level === 0 || px < 0 || px >= width) continue;
          const at = py * width + px;
          const current = target[at]!;
          if (current === 0 || (current - 1) % LEVELS < level - 1) target[at] = base + level - 1;
        }
      }
      pen += g.advance;
    }
  }

  /** A text cut with '…' to fit a width. */
  fit(text: string, style: Style, maxWidth: number): string {
    if (this.measure(text, style) <= maxWidth) return text;
    let cut = [...text];
    while (cut.length > 1 && this.measure(`${cut.join('').trimEnd()}…`, style) > maxWidth) cut = cut.slice(0, -1);
    return `${cut.join('').trimEnd()}…`;
  }

  /** The parts every image of a tone shares on one day: background, tone bar, labels, classification and footer. */
  template(tone: Tone, classification: string, footer: string): Uint8Array {
    const key = `${tone}|${classification}`;
    const cached = this.templates.get(key);
    if (cached) return cached;
    const { width } = SHARE_IMAGE_SIZE;
    const out = new Uint8Array(SHARE_IMAGE_SIZE.width * SHARE_IMAGE_SIZE.height);
    out.fill(1 + 3 * LEVELS + LEVELS - 1, 0, width * 14);
    this.draw(out, 'C-Score', STYLES.label, 80, 360);
    // The classification sits in an outlined box, drawn from the same tone-coloured coverage levels.
    const box = { x: 700, y: 385, w: 380, h: 100, stroke: 4 };
    for (let y = box.y; y < box.y + box.h; y++) {
      for (let x = box.x; x < box.x + box.w; x++) {
        const edge = y < box.y + box.stroke || y >= box.y + box.h - box.stroke || x < box.x + box.stroke || x >= box.x + box.w - box.stroke;
        if (edge) out[y * width + x] = 1 + 3 * LEVELS + LEVELS - 1;
      }
    }
    const wordWidth = this.measure(classification, STYLES.classification);
    this.draw(out, classification, STYLES.classification, box.x + (box.w - wordWidth) / 2, 455);
    this.draw(out, this.fit(footer, STYLES.footer, 1040), STYLES.footer, 80, 570);
    this.templates.set(key, out);
    return out;
  }

  /** The PNG of one ticker's share image. */
  render(input: ShareImageInput, siteName: string): Buffer {
    const t = shareImageText(input, siteName);
    const indices = this.canvas;
    indices.set(this.template(t.tone, t.classification, t.footer));
    if (t.notice !== null) this.draw(indices, this.fit(t.notice, STYLES.notice, 1040), STYLES.notice, 80, 72);
    this.draw(indices, this.fit(t.ticker, STYLES.ticker, 1040), STYLES.ticker, 80, 190);
    this.draw(indices, this.fit(t.company, STYLES.company, 1040), STYLES.company, 80, 265);
    this.draw(indices, t.score, STYLES.score, 80, 480);
    return encodeIndexedPng(indices, palette(TONE_COLORS[t.tone]), this.rows);
  }
}

/** Palette: the background, then 15 coverage levels of white, light grey, grey and the tone colour over it. */
function palette(toneColor: string): Buffer {
  const bg = hexToRgb(BACKGROUND);
  const colors = ['#ffffff', '#d1d5db', '#9ca3af', toneColor].map(hexToRgb);
  const out = Buffer.alloc((1 + colors.length * LEVELS) * 3);
  out.set(bg, 0);
  colors.forEach((color, c) => {
    for (let level = 1; level <= LEVELS; level++) {
      const k = level / LEVELS;
      const at = (1 + c * LEVELS + level - 1) * 3;
      for (let i = 0; i < 3; i++) out[at + i] = Math.round(bg[i]! + (color[i]! - bg[i]!) * k);
    }
  });
  return out;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit indexed PNG of the image's palette indices; `raw` holds its filtered rows (each row's filter byte stays 0). */
function encodeIndexedPng(indices: Uint8Array, plte: Buffer, raw: Buffer): Buffer {
  const { width, height } = SHARE_IMAGE_SIZE;
  for (let y = 0; y < height; y++) raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 3;
  // Run-length matching only: the rows of flat colour and anti-aliased text compress as well as with a full search
  // (a little better, measured on the share images), in less time.
  const idat = deflateSync(raw, { level: 3, strategy: zlib.Z_RLE });
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('PLTE', plte),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What a run did: images drawn, images reused from the cache, seconds. */
export interface ShareImageSummary {
  rendered: number;
  reused: number;
  seconds: number;
}

/** One image to draw: what it shows, and its file in the cache. */
interface PendingImage {
  input: ShareImageInput;
  path: string;
  /** Its path in the build. */
  target?: string;
}

/** What the drawing thread is handed: the images the cache lacks, and how to draw them. */
export interface ShareImageWork {
  images: PendingImage[];
  family: string;
  fontFiles: string[];
  siteName: string;
}

/**
 * Draws `work`'s images into the cache, one after the other (each written whole, then named); tells `onImage` the
 * count after each. The body of the drawing thread, which does its own compression: on the thread pool it would run
 * at the job's priority (see startShareImages).
 */
export function drawShareImages(work: ShareImageWork, onImage: (done: number) => void): void {
  const renderer = new ShareImageRenderer(work.family, work.fontFiles);
  work.images.forEach((image, index) => {
    const temp = `${image.path}.${process.pid}.${threadId}.tmp`;
    writeFileSync(temp, renderer.render(image.input, work.siteName));
    renameSync(temp, image.path);
    onImage(index + 1);
  });
}

/** Share images under way: drawn into the cache by a thread of their own, then placed in a build. */
export interface ShareImages {
  /** Settles when every image the cache lacked is in it; rejects with the drawing's error. */
  drawn: Promise<void>;
  /** Places every ticker's image in the build as og/signal/{TICKER}.png and drops cache entries no ticker uses. */
  place(clientDir: string): Promise<ShareImageSummary>;
  /** Ends the drawing early (a failed run): the images already in the cache stay, each one whole. */
  stop(): Promise<void>;
  /** Tells `handler` the count so far (drawn, of how many the cache lacked), then again after each image drawn. */
  onImage(handler: (done: number, total: number) => void): void;
}

export interface ShareImageOptions {
  /** Where images are kept between runs, by the hash of what they show. */
  cacheDir: string;
  siteName: string;
  /** The report is the generated sample data: each image says so. */
  source?: ReportSource;
  /** Tickers whose scores are Pro only (PAYWALL=on): their images show no score. */
  lockedTickers?: ReadonlySet<string>;
}

// The drawing thread's entry: plain JavaScript that loads this TypeScript, whatever started the job (tsx, vitest).
const WORKER_ENTRY = new URL('./share-images-worker.mjs', import.meta.url);

/**
 * Starts drawing the share image of every ticker of the latest report that the cache lacks (only those whose inputs
 * changed) in a worker thread, at the lowest priority: about 8 to 15 s of CPU at 6,000 tickers, which the job's own
 * thread (the site data, the static API), the compression threads and `astro build` no longer wait behind. The
 * images take the CPU those leave, from the parse (the daily job starts them as soon as the report is parsed) to the
 * end.
 */
export function startShareImages(latest: readonly SignalRecord[], options: ShareImageOptions): ShareImages {
  const { source, lockedTickers = new Set() } = options;
  return startImages(
    latest.map((record) => ({
      input: {
        ticker: record.ticker,
        companyName: record.companyName,
        cScore: lockedTickers.has(record.ticker) ? null : record.cScore,
        reportDate: record.reportDate,
        ...(source === 'sample' ? { sample: true } : {}),
      },
      target: `og/signal/${record.ticker}.png`,
    })),
    options,
  );
}

/** One signal's call: its ticker and company, the C-Score it qualified at and the day, and its image's path in the build. */
export interface CallImage {
  ticker: string;
  companyName: string;
  cScore: number;
  date: string;
  target: string;
}

/**
 * Starts drawing the share images of signal calls (each permalink's own: the stock's card as of the day it
 * qualified) that the cache lacks, like startShareImages; kept in their own folder of the cache, which only they clean.
 */
export function startCallImages(calls: readonly CallImage[], options: Omit<ShareImageOptions, 'lockedTickers'>): ShareImages {
  return startImages(
    calls.map((call) => ({
      input: { ticker: call.ticker, companyName: call.companyName, cScore: call.cScore, reportDate: call.date, ...(options.source === 'sample' ? { sample: true } : {}) },
      target: call.target,
    })),
    { ...options, cacheDir: join(options.cacheDir, 'calls') },
  );
}

function startImages(wanted: readonly { input: ShareImageInput; target: string }[], options: ShareImageOptions): ShareImages {
  const started = performance.now();
  const { cacheDir: cache, siteName } = options;
  const font = FONT_CANDIDATES.find((f) => f.files.every((file) => existsSync(file)));
  const images = wanted.map(({ input, target }) => {
    const hash = createHash('sha256').update(JSON.stringify([TEMPLATE_VERSION, font?.family ?? '', siteName, input])).digest('hex').slice(0, 32);
    return { input, target, path: join(cache, `${hash}.png`) };
  });
  mkdirSync(cache, { recursive: true });
  const missing = images.filter((image) => !existsSync(image.path));
  const work: ShareImageWork = { images: missing, family: font?.family ?? 'sans-serif', fontFiles: font?.files ?? [], siteName };
  const worker = missing.length === 0 ? null : new Worker(WORKER_ENTRY, { workerData: work, execArgv: [] });
  let stopped = false;
  let drawnSoFar = 0;
  let onImage: ((done: number, total: number) => void) | null = null;
  const drawn = new Promise<void>((resolveDrawn, reject) => {
    if (worker === null) return resolveDrawn();
    worker.on('message', (done: number) => onImage?.((drawnSoFar = done), missing.length));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code === 0) resolveDrawn();
      else reject(new Error(stopped ? 'The share images were stopped.' : `The share images' thread ended with code ${code}.`));
    });
  });
  // Awaited by the build; a run that fails before then stops the thread, and its rejection is not unhandled.
  drawn.catch(() => undefined);
  return {
    drawn,
    onImage(handler) {
      onImage = handler;
      handler(drawnSoFar, missing.length);
    },
    async stop() {
      stopped = true;
      await worker?.terminate();
    },
    async place(clientDir) {
      await drawn;
      const now = new Date();
      const folders = new Set<string>();
      for (const image of images) folders.add(dirname(join(clientDir, image.target)));
      for (const folder of folders) await mkdir(folder, { recursive: true });
      await Promise.all(
        images.map(async (image) => {
          const target = join(clientDir, image.target);
          // A hard link costs no space; a cache on another file system gets a copy.
          await link(image.path, target).catch(() => copyFile(image.path, target));
          await utimes(image.path, now, now);
        }),
      );
      // Gone from the cache: the images no ticker uses any more, and what a killed run left half-written.
      const used = new Set(images.map((image) => image.path));
      for (const name of await readdir(cache)) {
        const path = join(cache, name);
        if ((!used.has(path) && name.endsWith('.png')) || name.endsWith('.tmp')) await rm(path, { force: true });
      }
      return { rendered: missing.length, reused: images.length - missing.length, seconds: (performance.now() - started) / 1000 };
    },
  };
}
