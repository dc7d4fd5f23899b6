import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');

/** The Markdown the repository publishes for readers: the README and every docs/ page. */
const MARKDOWN_FILES = ['README.md', ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

type Node = { type: string; url?: string; value?: string; children?: Node[]; position?: { start: { line: number } } };

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

/** A heading's text as GitHub slugs it: its text and inline code, without the markup. */
function plainText(node: Node): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? '';
  return (node.children ?? []).map(plainText).join('');
}

/** The anchors GitHub gives a Markdown file's headings (lower case, spaces to '-', punctuation dropped, repeats numbered). */
function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walk(fromMarkdown(markdown) as Node, (node) => {
    if (node.type === 'heading') anchors.add(slugger.slug(plainText(node)));
  });
  return anchors;
}

/** Every link and image target of a Markdown text, with its line (code blocks and code spans hold none). */
function linkTargets(markdown: string): { url: string; line: number }[] {
  const targets: { url: string; line: number }[] = [];
  walk(fromMarkdown(markdown) as Node, (node) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.url !== undefined) {
      targets.push({ url: node.url, line: node.position?.start.line ?? 0 });
    }
  });
  return targets;
}

/**
 * The relative links of `file` (a path under `root`) whose file or heading anchor does not exist, as
 * "file:line: target: what is wrong"; links with a scheme (https:, mailto:) are not checked.
 */
function brokenLinks(root: string, file: string): string[] {
  const read = (path: string): string => readFileSync(path, 'utf8');
  const problems: string[] = [];
  const source = join(root, file);
  for (const { url, line } of linkTargets(read(source))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) continue;
    const [pathPart, fragment] = url.split('#', 2) as [string, string | undefined];
    const target = pathPart === '' ? source : resolve(dirname(source), decodeURIComponent(pathPart));
    const where = `${file}:${line}: ${url}`;
    if (!existsSync(target)) {
      problems.push(`${where}: no file ${relative(root, target)}`);
      continue;
    }
    if (fragment === undefined || fragment === '') continue;
    if (!target.endsWith('.md') || statSync(target).isDirectory()) {
      problems.push(`${where}: an anchor into ${relative(root, target)}, which is not a Markdown file`);
      continue;
    }
    if (!headingAnchors(read(target)).has(decodeURIComponent(fragment))) {
      problems.push(`${where}: no heading #${fragment} in ${relative(root, target)}`);
    }
  }
  return problems;
}

describe('the checker', () => {
  it('slugs headings as GitHub does', () => {
    expect([...headingAnchors('# Data flow\n## Fundamentals and earnings dates\n## AI analysis & chat\n## `npm test`, once\n## Data flow\n')]).toEqual([
      'data-flow',
      'fundamentals-and-earnings-dates',
      'ai-analysis--chat',
      'npm-test-once',
      'data-flow-1',
    ]);
  });

  it('reports a missing file and a missing anchor, and skips code and absolute links', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'README.md'), '[ok](docs/a.md#b) [gone](docs/none.md) [bad](docs/a.md#limits) `[code](x.md)` [web](https://example.com/#x)\n');
      writeFileSync(join(root, 'docs/a.md'), '# A\n\n## B\n\n[self](#a) [up](../README.md) [lost](#c)\n\n```\n[fenced](nowhere.md)\n```\n');
      expect(brokenLinks(root, 'README.md')).toEqual(['README.md:1: docs/none.md: no file docs/none.md', 'README.md:1: docs/a.md#limits: no heading #limits in docs/a.md']);
      expect(brokenLinks(root, 'docs/a.md')).toEqual(['docs/a.md:5: #c: no heading #c in docs/a.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('README.md and docs/', () => {
  it.each(MARKDOWN_FILES)('%s: every relative link names a file and heading that exist', (file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });

  it('every docs/ page is one click from the README', () => {
    const linked = new Set(
      linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'))
        .map(({ url }) => url.split('#')[0])
        .filter((path) => path?.startsWith('docs/') && path.endsWith('.md')),
    );
    const pages = MARKDOWN_FILES.filter((file) => file.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
