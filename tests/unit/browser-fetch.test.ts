/**
 * The typed contract between server and browser, as far as dependency-cruiser cannot see it: browser code makes no
 * request of its own (every fetch goes through src/lib/client, whose typed client reads the server's route types), and
 * no route factory hides its types behind `as unknown as Hono`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** Folders whose TypeScript runs in the browser (or is imported by what does). */
const BROWSER_CODE = ['src/islands', 'src/scripts', 'src/stores', 'src/components', 'src/directives', 'src/renderers'];
/** Folders of .astro files whose <script> blocks run in the browser (their front matter runs at build time). */
const BROWSER_SCRIPTS = ['src/components', 'src/layouts', 'src/pages'];

/** A request made without lib/client. */
const REQUEST = /\bfetch\s*\(|\bnew\s+XMLHttpRequest\b|\bnavigator\s*\.\s*sendBeacon\b/;

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => pattern.test(path))
    .map((path) => join(dir, path));
}

/** The text with its comments blanked (newlines kept, so line numbers hold): a comment may say "fetch (...)". */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** An .astro file's <script> blocks, everything else blanked (newlines kept). */
function scriptBlocks(text: string): string {
  const kept = text.replace(/[^\n]/g, ' ').split('');
  for (const match of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    const start = match.index + match[0].indexOf('>') + 1;
    for (let i = 0; i < match[1]!.length; i++) kept[start + i] = text[start + i]!;
  }
  return kept.join('');
}

/** "file:line: text" of each line of `code` that makes a request. */
function requests(path: string, code: string): string[] {
  return withoutComments(code)
    .split('\n')
    .flatMap((line, i) => (REQUEST.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
}

/** Every request made by browser code outside src/lib/client. */
export function browserRequests(): string[] {
  const code = BROWSER_CODE.flatMap((dir) => files(dir, /\.(ts|tsx|mjs|js)$/)).map((path) => requests(path, readFileSync(join(ROOT, path), 'utf8')));
  const scripts = BROWSER_SCRIPTS.flatMap((dir) => files(dir, /\.astro$/)).map((path) => requests(path, scriptBlocks(readFileSync(join(ROOT, path), 'utf8'))));
  return [...code, ...scripts].flat();
}

describe('browser requests', () => {
  it('go through src/lib/client only: no fetch, XMLHttpRequest or sendBeacon in islands, scripts, stores, components, layouts, pages, directives or renderers', () => {
    expect(browserRequests(), 'Call the API through src/lib/client (api-client.ts: `answer(api.<route>.$get())`), not fetch here').toEqual([]);
  });

  it('are seen in a .astro <script> block and in code, and not in a comment or in front matter', () => {
    const astro = '---\nconst data = await fetch("x");\n---\n<p>fetch (x)</p>\n<script>\n  // fetch(a)\n  void fetch("/api/x");\n</script>';
    expect(requests('Page.astro', scriptBlocks(astro))).toEqual(['Page.astro:7: void fetch("/api/x");']);
    expect(requests('a.ts', 'const x = 1;\n/* fetch(y) */\nnavigator.sendBeacon("/b");\nconst r = new XMLHttpRequest();')).toEqual([
      'a.ts:3: navigator.sendBeacon("/b");',
      'a.ts:4: const r = new XMLHttpRequest();',
    ]);
  });
});

describe('route types', () => {
  it('no `as unknown as Hono` in src/: every route factory returns its typed chain, so the browser client reads its answers', () => {
    const casts = files('src', /\.(ts|tsx)$/).flatMap((path) =>
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/as\s+unknown\s+as\s+Hono\b/.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(casts).toEqual([]);
  });
});
