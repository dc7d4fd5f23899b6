import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CScoreGuideSchema,
  PolicySchema,
  QuestionSchema,
  ReleaseSchema,
  byOrder,
  fillPlaceholders,
  newestFirst,
  releaseHeading,
  type Release,
} from '../../src/lib/domain/site/editorial';
import { parseOrExplain } from '../../src/lib/domain/text/explain';
import { placeholderPlugin } from '../../src/lib/editorial-markdown';
import { TEXT_PLACEHOLDERS } from '../../src/lib/site-meta';

const policy = { title: 'Terms of use', section: 'Terms', description: 'Terms of {SITE_NAME}.', lead: 'Effective November 2026.' };
const guide = { summary: 'More information', title: 'Guide', ranges: [{ range: '65 to 100', label: 'Bullish', text: 'up.' }], methodology: 'Methodology.' };

describe('the collections refuse a bad entry, listing every problem', () => {
  it.each([
    ['a policy without a title', PolicySchema, { ...policy, title: undefined }, /title: title is missing/],
    ['a policy with an empty lead', PolicySchema, { ...policy, lead: '  ' }, /lead: lead is empty/],
    ['a question without its order', QuestionSchema, { question: 'Why?' }, /order: order is missing/],
    ['a question placed at 1.5', QuestionSchema, { question: 'Why?', order: 1.5 }, /order must be a whole number/],
    ['a question with a misspelt key', QuestionSchema, { qestion: 'Why?', order: 1 }, /question: question is missing.*Unrecognized key: "qestion"/],
    ['a release dated in words', ReleaseSchema, { version: '0.1.0', date: 'November 2026' }, /date: date must be the release's month as yyyy-mm/],
    ['a release of month 13', ReleaseSchema, { version: '0.1.0', date: '2026-13' }, /date must be/],
    ['a release without a version', ReleaseSchema, { date: '2026-11' }, /version: version is missing/],
    ['a guide without ranges', CScoreGuideSchema, { ...guide, ranges: [] }, /ranges: ranges is empty/],
    ['a guide range without its label', CScoreGuideSchema, { ...guide, ranges: [{ range: '1', text: 'x' }] }, /ranges\[0\]\.label: label is missing/],
  ])('%s', (_, schema, data, message) => {
    expect(() => parseOrExplain(schema, data, 'the entry')).toThrow(message);
  });

  it('accepts a good entry, a release being no beta unless it says so', () => {
    expect(parseOrExplain(PolicySchema, policy, 'terms')).toEqual(policy);
    expect(parseOrExplain(ReleaseSchema, { version: '1.0.0', date: '2027-01' }, 'release')).toEqual({ version: '1.0.0', date: '2027-01', beta: false });
  });
});

describe('byOrder: the Learn page lists its questions by order, never by file name', () => {
  const question = (id: string, order: number) => ({ id, filePath: `src/content/questions/${id}.md`, data: { order } });

  it('sorts by order', () => {
    const sorted = byOrder([question('a', 3), question('b', 1), question('c', 2), question('d', -1)]);
    expect(sorted.map((q) => q.id)).toEqual(['d', 'b', 'c', 'a']);
  });

  it('refuses two questions with one order, naming both files', () => {
    expect(() => byOrder([question('a', 2), question('b', 1), question('c', 2)])).toThrow(
      'src/content/questions/a.md and src/content/questions/c.md both have order 2: give each its own number',
    );
  });
});

describe('the changelog: newest release first, headed by version and month', () => {
  const release = (version: string, date: string, beta = false) => ({ id: version, data: { version, date, beta } satisfies Release });

  it('orders by month, then by version within a month (0.10.0 after 0.9.0)', () => {
    const sorted = newestFirst([release('0.1.0', '2026-11'), release('0.9.0', '2027-02'), release('0.10.0', '2027-02'), release('0.2.0', '2026-12')]);
    expect(sorted.map((r) => r.id)).toEqual(['0.10.0', '0.9.0', '0.2.0', '0.1.0']);
  });

  it.each([
    [{ version: '0.1.0', date: '2026-11', beta: true }, '0.1.0 (beta), November 2026'],
    [{ version: '1.0.0', date: '2027-01', beta: false }, '1.0.0, January 2027'],
  ])('%j -> %s', (data, heading) => {
    expect(releaseHeading(data)).toBe(heading);
  });
});

describe('placeholders: a text names the product and the plans as the settings say', () => {
  const values = { SITE_NAME: 'Acme Signals', FREE_PLAN: 'Free: 3 signals' };

  it('fills every known placeholder and leaves lower-case braces alone', () => {
    expect(fillPlaceholders('{SITE_NAME} is free ({FREE_PLAN}); {SITE_NAME}. {note}', values, 'x.md')).toBe(
      'Acme Signals is free (Free: 3 signals); Acme Signals. {note}',
    );
  });

  it('refuses an unknown placeholder, naming the file and the placeholders there are', () => {
    expect(() => fillPlaceholders('{SITE} says', values, 'src/content/x.md')).toThrow(
      'src/content/x.md: {SITE} is not a placeholder; the texts may use {SITE_NAME}, {FREE_PLAN}',
    );
  });

  it('the Markdown plugin fills text nodes and names the file of an unknown placeholder', () => {
    const plugin = placeholderPlugin(values);
    const fileURL = pathToFileURL(resolve('src/content/questions/plans.md'));
    expect(plugin.text({ value: 'No. {SITE_NAME} is informational.' }, { fileURL })).toEqual({ type: 'text', value: 'No. Acme Signals is informational.' });
    expect(plugin.text({ value: 'No braces.' }, { fileURL })).toBeUndefined();
    expect(() => plugin.text({ value: '{PRO_PLAN}.' }, { fileURL })).toThrow('src/content/questions/plans.md: {PRO_PLAN} is not a placeholder');
  });

  it('the plans read as the Learn page words them, from plans.ts, with PAYWALL off (the tests\' default): no limit promised', () => {
    expect(TEXT_PLACEHOLDERS.FREE_PLAN).toBe('Free: Every daily signal and top signal; every list, the Signals Heatmap and the archives; 3 AI analyses and 20 AI chat messages a day');
    expect(TEXT_PLACEHOLDERS.PRO_PLAN).toBe('Pro: $20.00 per month or $16.67 per month billed annually, with nothing more than Free for now: this site is open to everyone');
  });
});
