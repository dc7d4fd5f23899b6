import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { constants as zlib, crc32, deflate } from 'node:zlib';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { shareImageText, type ShareImageInput } from '../lib/domain/detail';
import type { SiteData } from '../lib/domain/schemas';

/** Size of a share image (Open Graph's large image). */
const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/**
 * Images drawn or compressed at once. Measured at 6,000 tickers: compressing on this thread (deflateSync) held it for
 * 8 of the 15 seconds the images took, while the thread pool had room.
 */
const IMAGES_IN_FLIGHT = 4;

/** Bump when the drawing changes, so every cached image is made again. */
const TEMPLATE_VERSION = 2;

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

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Draws share images fast enough for thousands of tickers a day: each glyph of each style is rasterized once by
 * resvg, then every image is composed from glyphs into palette indices and written as an indexed PNG
 * (about 5 ms an image, where resvg plus its own PNG encoder takes about 55 ms).
 */
class ShareImageRenderer {
  private readonly glyphs = new Map<string, Glyph>();
  private readonly templates = new Map<Tone, Uint8Array>();
  // One canvas for every image, and one PNG row buffer for each image being compressed. Allocating 1.5 MB of buffers
  // an image made V8 run a full collection every few dozen images. In the daily job, whose heap holds years of
  // history, that tripled the time the images took.
  private readonly canvas = new Uint8Array(SHARE_IMAGE_SIZE.width * SHARE_IMAGE_SIZE.height);
  private readonly freeRows: Buffer[] = [];
  private readonly font: ResvgRenderOptions['font'];

  constructor(
    private readonly family: string,
    fontFiles: string[],
  ) {
    this.font = fontFiles.length > 0 ? { loadSystemFonts: false, fontFiles, defaultFontFamily: family } : { loadSystemFonts: true };
  }

  private svgText(text: string, style: Style, x: number, y: number, width: number, height: number): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="${x}" y="${y}" font-family="${escapeXml(this.family)}" font-size="${style.size}" font-weight="${style.bold ? 'bold' : 'normal'}" fill="#fff" xml:space="preserve">${escapeXml(text)}</text></svg>`;
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
    const cached = this.templates.get(tone);
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
    this.templates.set(tone, out);
    return out;
  }

  /**
   * The PNG of one ticker's share image. It is drawn at once; its compression runs on libuv's thread pool, so several
   * renders may be under way while this thread draws the next image.
   */
  async render(input: ShareImageInput, siteName: string): Promise<Buffer> {
    const t = shareImageText(input, siteName);
    const indices = this.canvas;
    indices.set(this.template(t.tone, t.classification, t.footer));
    if (t.notice !== null) this.draw(indices, this.fit(t.notice, STYLES.notice, 1040), STYLES.notice, 80, 72);
    this.draw(indices, this.fit(t.ticker, STYLES.ticker, 1040), STYLES.ticker, 80, 190);
    this.draw(indices, this.fit(t.company, STYLES.company, 1040), STYLES.company, 80, 265);
    this.draw(indices, t.score, STYLES.score, 80, 480);
    const rows = this.freeRows.pop() ?? Buffer.alloc((SHARE_IMAGE_SIZE.width + 1) * SHARE_IMAGE_SIZE.height);
    try {
      return await encodeIndexedPng(indices, palette(TONE_COLORS[t.tone]), rows);
    } finally {
      this.freeRows.push(rows);
    }
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

const deflateAsync = promisify(deflate);

/**
 * An 8-bit indexed PNG of the image's palette indices; `raw` holds its filtered rows (each row's filter byte stays 0).
 * The indices are copied before the first await: the caller may draw the next image on the same canvas.
 */
async function encodeIndexedPng(indices: Uint8Array, plte: Buffer, raw: Buffer): Promise<Buffer> {
  const { width, height } = SHARE_IMAGE_SIZE;
  for (let y = 0; y < height; y++) raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 3;
  // Run-length matching only: the rows of flat colour and anti-aliased text compress as well as with a full search
  // (a little better, measured on the share images), in less time.
  const idat = await deflateAsync(raw, { level: 3, strategy: zlib.Z_RLE });
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

/**
 * Draws the share image of every ticker of the latest report into the cache (only those whose inputs changed)
 * while `build` runs in its own process, then places them in the build as og/signal/{TICKER}.png and drops
 * cache entries no ticker uses any more.
 */
export async function withShareImages(
  data: SiteData,
  clientDir: string,
  build: () => Promise<void>,
  {
    cacheDir: cache,
    siteName,
    lockedTickers = new Set(),
    onImage = () => undefined,
  }: {
    /** Where images are kept between runs, by the hash of what they show. */ cacheDir: string;
    siteName: string;
    /** Tickers whose scores are Pro only (PAYWALL=on): their images show no score. */
    lockedTickers?: ReadonlySet<string>;
    /** Told after each image drawn: how many of how many. */
    onImage?: (done: number, total: number) => void;
  },
): Promise<ShareImageSummary> {
  const started = performance.now();
  await mkdir(cache, { recursive: true });
  const font = FONT_CANDIDATES.find((f) => f.files.every((file) => existsSync(file)));
  const images = data.history.latest.map((record) => {
    const input: ShareImageInput = {
      ticker: record.ticker,
      companyName: record.companyName,
      cScore: lockedTickers.has(record.ticker) ? null : record.cScore,
      reportDate: record.reportDate,
      ...(data.source === 'sample' ? { sample: true } : {}),
    };
    const hash = createHash('sha256').update(JSON.stringify([TEMPLATE_VERSION, font?.family ?? '', siteName, input])).digest('hex').slice(0, 32);
    return { input, path: join(cache, `${hash}.png`) };
  });
  const missing = images.filter((image) => !existsSync(image.path));
  const renderer = new ShareImageRenderer(font?.family ?? 'sans-serif', font?.files ?? []);
  let done = 0;
  const drawOne = async (image: (typeof missing)[number]) => {
    const temp = `${image.path}.${process.pid}.tmp`;
    await writeFile(temp, await renderer.render(image.input, siteName));
    await rename(temp, image.path);
    onImage((done += 1), missing.length);
  };
  // IMAGES_IN_FLIGHT images at once: this thread draws one while the thread pool compresses and writes the others.
  const drawing = (async () => {
    onImage(0, missing.length);
    let next = 0;
    // One failure stops the others from taking a next image, as the one-at-a-time loop stopped.
    let failed = false;
    await Promise.all(
      Array.from({ length: Math.min(IMAGES_IN_FLIGHT, missing.length) }, async () => {
        while (!failed && next < missing.length) {
          await drawOne(missing[next++]!).catch((error: unknown) => {
            failed = true;
            throw error;
          });
        }
      }),
    );
  })();
  await Promise.all([build(), drawing]);

  const outDir = join(clientDir, 'og', 'signal');
  await mkdir(outDir, { recursive: true });
  const now = new Date();
  await Promise.all(
    images.map(async (image) => {
      const target = join(outDir, `${image.input.ticker}.png`);
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
