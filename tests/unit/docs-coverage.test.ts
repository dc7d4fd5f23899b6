import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** Variables our own scripts set for the processes they start; nobody sets them by hand. */
const SET_BY_OUR_SCRIPTS = ['SITE_DATA_FILE', 'SITE_DATA_WAIT_SECONDS', 'DEV_API_PORT'];

/** The lines of a Markdown table that follows `heading` (up to the next heading). */
function sectionTable(markdown: string, heading: string): string {
  const text = `\n${markdown}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/^#{1,6} /m);
  return (end < 0 ? rest : rest.slice(0, end))
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
}

describe('docs/environment.md', () => {
  it('names in its table every variable src/config.ts reads', () => {
    const table = sectionTable(read('docs/environment.md'), '# Environment variables');
    const variables = Object.keys(EnvSchema.shape).filter((name) => !SET_BY_OUR_SCRIPTS.includes(name));
    expect(variables.length).toBeGreaterThan(40);
    expect(variables.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("the README's Commands table", () => {
  it('lists every npm script', () => {
    const table = sectionTable(read('README.md'), '## Commands');
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    // `npm start` and `npm test` need no `run`; a row may list several scripts of one family as `test:unit`, `test:e2e`.
    const listed = (name: string): boolean => {
      const quoted = name.replace(/[^\w]/g, '\\$&');
      return new RegExp(`npm (run )?${quoted}(?![\\w:-])|\`${quoted}\``).test(table);
    };
    expect(scripts.filter((name) => !listed(name))).toEqual([]);
  });
});
