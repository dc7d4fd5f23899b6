import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NOT_FOUND_PAGE, STOCK_NOT_FOUND_PAGE } from '../lib/domain/site/routes';

/** Routes every build must contain, as files under the client folder. */
const FIXED_ROUTES = [
  'index.html',
  NOT_FOUND_PAGE,
  STOCK_NOT_FOUND_PAGE,
  'all-signals/index.html',
  'recently-qualified/index.html',
  'currently-qualified/index.html',
  'reversals-exits/index.html',
  'heatmap/index.html',
  'explore/index.html',
  'archives/index.html',
  'learn/index.html',
  'changelog/index.html',
  'terms/index.html',
  'privacy/index.html',
  'signals-dao/index.html',
  'upload/index.html',
  'ai-analysis/index.html',
  'ai-chat/index.html',
  'admin/index.html',
];

// Text a broken template leaves behind; script and style bodies are skipped because code legitimately says 'undefined'.
const BROKEN_TEXT = /\bNaN\b|\bundefined\b|\[object Object\]/;
const CODE_BLOCKS = /<script\b[^>]*>[\s\S]*?<\/script>|<style\b[^>]*>[\s\S]*?<\/style>/gi;

/** Finds the first text of a broken template in an HTML page, with a little context, or null. */
export function findBrokenText(html: string): string | null {
  const visible = html.replace(CODE_BLOCKS, '');
  const match = BROKEN_TEXT.exec(visible);
  if (!match) return null;
  return visible.slice(Math.max(0, match.index - 40), match.index + 40).replace(/\s+/g, ' ');
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The CSP hashes ('sha256-...') of a page's inline scripts that run: no `src`, and no data type such as JSON-LD. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes!)?.[1]?.toLowerCase();
    if (type !== undefined && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
  }
  return hashes;
}

/** What the smoke check takes from one page: the text of a broken template (null: none) and its inline scripts' hashes. */
export interface PageFindings {
  broken: string | null;
  hashes: string[];
}

/** A page's findings (run where the page's bytes are: the compression threads look at each page they read). */
export function pageFindings(html: string): PageFindings {
  return { broken: findBrokenText(html), hashes: inlineScriptHashes(html) };
}

/**
 * The smoke check's look at each HTML page: text a broken template leaves, and the CSP hashes of its inline scripts.
 * The daily job's compressor looks at each page as it reads it during the build (`record`), so the pages are read
 * once; `result` reads any page it was not given.
 */
export class PageCheck {
  private readonly problems: string[] = [];
  private readonly hashes = new Set<string>();
  private readonly seen = new Set<string>();

  /** Looks at a file of the build (its path relative to the client folder, `/`-separated); other than HTML is ignored. */
  inspect(relativePath: string, bytes: Buffer | string): void {
    if (!relativePath.endsWith('.html') || this.seen.has(relativePath)) return;
    this.record(relativePath, pageFindings(typeof bytes === 'string' ? bytes : bytes.toString('utf8')));
  }

  /** Takes the findings of a page looked at elsewhere (the compression threads); a page already seen is ignored. */
  record(relativePath: string, { broken, hashes }: PageFindings): void {
    if (this.seen.has(relativePath)) return;
    this.seen.add(relativePath);
    if (broken) this.problems.push(`${relativePath} shows "${broken}"`);
    for (const hash of hashes) this.hashes.add(hash);
  }

  /**
   * The check of the whole build in `clientDir`: every page it must have, and every page looked at. It walks no folder
   * (a build with five years of permalinks holds hundreds of thousands): a page it must have and was not given is looked
   * up and read; `pages` counts the pages looked at.
   */
  async result(clientDir: string, tickers: readonly string[]): Promise<{ problems: string[]; pages: number; scriptHashes: string[] }> {
    const required = [...FIXED_ROUTES, ...tickers.map((ticker) => `signal/${ticker}/index.html`)];
    const missing: string[] = [];
    const unseen = required.filter((path) => !this.seen.has(path));
    const batch = 64;
    for (let i = 0; i < unseen.length; i += batch) {
      const chunk = unseen.slice(i, i + batch);
      const texts = await Promise.all(chunk.map((path) => readFile(join(clientDir, path), 'utf8').catch(() => null)));
      texts.forEach((html, j) => {
        if (html === null) missing.push(`missing page ${chunk[j]!}`);
        else this.inspect(chunk[j]!, html);
      });
    }
    return { problems: [...missing, ...this.problems], pages: this.seen.size, scriptHashes: [...this.hashes].sort() };
  }
}
