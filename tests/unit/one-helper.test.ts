/**
 * One helper per rule: the HTML escaper, the browser's DOM helper and the news schema each have one definition, and
 * the escaper's output reads back as the text it was given, in element content and in a quoted attribute. Comments name
 * no issue numbers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { NewsArticleSchema } from '../../src/lib/domain/market-data/market';
import { escapeHtml } from '../../src/lib/domain/text/text';

const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|tsx|astro|mjs)$/.test(path))
    .map((path) => join(dir, path));
}

const SOURCES = [...sourceFiles('src'), ...sourceFiles('scripts')].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

const definedIn = (pattern: RegExp) => SOURCES.filter(({ text }) => pattern.test(text)).map(({ path }) => path).sort();

type Parsed = { nodeName: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Parsed[] };

describe('escapeHtml', () => {
  it('turns & < > " and \' into entities, and leaves other text alone', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    expect(escapeHtml('AT&T')).toBe('AT&amp;T');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('Société Générale — 100%')).toBe('Société Générale — 100%');
  });

  it('reads back as the same text in element content and in a double- or single-quoted attribute', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', ' ', '=', '/', ';', '#', 'é') }), (text) => {
        const html = `<p title="${escapeHtml(text)}" lang='${escapeHtml(text)}'>${escapeHtml(text)}</p>`;
        const p = (parseFragment(html) as unknown as Parsed).childNodes![0]!;
        expect(p.nodeName).toBe('p');
        expect(p.attrs).toEqual([{ name: 'title', value: text }, { name: 'lang', value: text }]);
        expect((p.childNodes ?? []).map((node) => node.value).join('')).toBe(text);
      }),
    );
  });

  it('is the only HTML escaper in src/ and scripts/', () => {
    expect(definedIn(/['"]&lt;['"]/)).toEqual(['src/lib/domain/text/text.ts']);
  });
});

describe('one definition each', () => {
  it('the DOM helper element() lives in src/scripts/dom.ts alone', () => {
    expect(definedIn(/function element\b|const element\s*=\s*(<|\()/)).toEqual(['src/scripts/dom.ts']);
  });

  it('the news article schema is written once, in lib/domain/market-data/market.ts, and the provider parses with it', () => {
    expect(definedIn(/article_url: z\./)).toEqual(['src/lib/domain/market-data/market.ts']);
    expect(definedIn(/NewsArticleSchema\b/)).toEqual(['src/lib/domain/market-data/market.ts', 'src/lib/domain/site/api-answers.ts', 'src/server/providers/polygon.ts']);
    expect(NewsArticleSchema.safeParse({ id: '1', title: 'T', article_url: 'https://example.com/a', published_utc: '2026-11-20T12:00:00Z' }).success).toBe(false);
  });
});

describe('comments', () => {
  it('name no issue numbers in src/ and scripts/ (the repository has no issue list)', () => {
    expect(definedIn(/\bissues? #?\d+|\(#\d+\)/i)).toEqual([]);
  });
});
