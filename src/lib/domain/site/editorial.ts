/**
 * The editorial texts of src/content (the changelog, the terms and privacy pages, the Learn page's questions and
 * the C-Score explainer): the schemas their front matter must match, the order the pages show them in, and the
 * placeholders a text may use for what comes from configuration (the product name, the plans).
 */
import { z } from '../zod';

const text = (what: string) =>
  z.string({ error: `${what} is missing: write it as text` }).trim().min(1, `${what} is empty`);

/** A question of the Learn page: the question as its summary shows it, and its place in the list. */
export const QuestionSchema = z.strictObject({
  question: text('question'),
  order: z
    .number({ error: 'order is missing: a whole number that places the question on the Learn page (1 first)' })
    .int('order must be a whole number'),
});

/** A release in the changelog: its version, the month it shipped and whether it was a beta. */
export const ReleaseSchema = z.strictObject({
  version: z
    .string({ error: 'version is missing: write it as major.minor.patch, e.g. 0.1.0' })
    .regex(/^\d+\.\d+\.\d+$/, 'version must read major.minor.patch, e.g. 0.1.0'),
  date: z
    .string({ error: "date is missing: write the release's month as yyyy-mm in quotes, e.g. '2026-11'" })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "date must be the release's month as yyyy-mm, e.g. '2026-11'"),
  beta: z.boolean({ error: 'beta must be true or false' }).default(false),
});

/** A policy page (terms, privacy): its heading, its name in the tab's title, its meta description and lead line. */
export const PolicySchema = z.strictObject({
  title: text('title'),
  section: text('section'),
  description: text('description'),
  lead: text('lead'),
});

/** The methodology page: its version (major.minor.patch), its date, and the changelog of the methodology. */
export const MethodologySchema = z.strictObject({
  title: text('title'),
  description: text('description'),
  version: z.string({ error: 'version is missing: write it as major.minor.patch, e.g. 1.0.0' }).regex(/^\d+\.\d+\.\d+$/, 'version must read major.minor.patch, e.g. 1.0.0'),
  date: z.string({ error: "date is missing: write it as yyyy-mm-dd in quotes, e.g. '2026-11-27'" }).regex(/^\d{4}-\d{2}-\d{2}$/, "date must read yyyy-mm-dd, e.g. '2026-11-27'"),
  changes: z.array(z.strictObject({ version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a change\'s version must read major.minor.patch'), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a change's date must read yyyy-mm-dd"), text: text('text') })).min(1, 'changes must list at least the current version'),
});

/** The C-Score interpretation guide behind 'More information': one line per range, then the methodology note. */
export const CScoreGuideSchema = z.strictObject({
  summary: text('summary'),
  title: text('title'),
  ranges: z
    .array(z.strictObject({ range: text('range'), label: text('label'), text: text('text') }), {
      error: 'ranges is missing: list each range with its range, label and text',
    })
    .min(1, 'ranges is empty: list each range with its range, label and text'),
  methodology: text('methodology'),
});

export type Question = z.infer<typeof QuestionSchema>;
export type Release = z.infer<typeof ReleaseSchema>;
export type CScoreGuide = z.infer<typeof CScoreGuideSchema>;

/** A collection entry as far as ordering needs it (Astro's entries have more). */
interface Entry<T> {
  id: string;
  filePath?: string | undefined;
  data: T;
}

/** Questions by their `order`, first first; two with the same order are refused, so no file name decides. */
export function byOrder<E extends Entry<{ order: number }>>(entries: readonly E[]): E[] {
  const sorted = [...entries].sort((a, b) => a.data.order - b.data.order);
  sorted.forEach((entry, i) => {
    const next = sorted[i + 1];
    if (next && next.data.order === entry.data.order) {
      throw new Error(
        `${entry.filePath ?? entry.id} and ${next.filePath ?? next.id} both have order ${entry.data.order}: give each its own number`,
      );
    }
  });
  return sorted;
}

/** Releases newest first: by month, then by version within a month. */
export function newestFirst<E extends Entry<Release>>(entries: readonly E[]): E[] {
  return [...entries].sort(
    (a, b) => b.data.date.localeCompare(a.data.date) || b.data.version.localeCompare(a.data.version, 'en', { numeric: true }),
  );
}

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A release's heading in the changelog: '0.1.0 (beta), November 2026'. */
export function releaseHeading(release: Release): string {
  return `${release.version}${release.beta ? ' (beta)' : ''}, ${MONTH.format(new Date(`${release.date}-01T00:00:00Z`))}`;
}

const PLACEHOLDER = /\{([A-Z][A-Z0-9_]*)\}/g;

/** The guide with the placeholders of every text filled (`where` names the file if one is unknown). */
export function fillGuide(guide: CScoreGuide, values: Readonly<Record<string, string>>, where: string): CScoreGuide {
  const fill = (text: string) => fillPlaceholders(text, values, where);
  return {
    summary: fill(guide.summary),
    title: fill(guide.title),
    ranges: guide.ranges.map((r) => ({ range: fill(r.range), label: fill(r.label), text: fill(r.text) })),
    methodology: fill(guide.methodology),
  };
}

/**
 * The text with each `{NAME}` replaced by its value; an unknown name is refused with `where` and the names there are.
 * Lower-case braces are left as they are.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>, where: string): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!Object.hasOwn(values, name)) {
      const known = Object.keys(values).map((key) => `{${key}}`).join(', ');
      throw new Error(`${where}: ${whole} is not a placeholder; the texts may use ${known}`);
    }
    return values[name]!;
  });
}
