/**
 * The editorial texts, one collection per kind; an entry whose front matter does not match its schema fails the
 * build with every problem listed. Markdown texts may write {SITE_NAME}, {FREE_PLAN} and {PRO_PLAN} where the
 * product's name or a plan belongs (src/lib/site-meta.ts fills them).
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { CScoreGuideSchema, PolicySchema, QuestionSchema, ReleaseSchema } from './lib/domain/editorial';

/** The changelog, one file per release; the page lists them newest first by `date`. */
const changelog = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/changelog' }),
  schema: ReleaseSchema,
});

/** The policy pages, one file each: terms.md is /terms, privacy.md is /privacy. */
const policies = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/policies' }),
  schema: PolicySchema,
});

/** The Learn page's questions, one file each, listed by `order`. */
const questions = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/questions' }),
  schema: QuestionSchema,
});

/**
 * The C-Score interpretation guide of the stock page and the stock dialog. JSON, not Markdown: the dialog renders
 * it in the browser, which imports the file itself; this collection checks it at build time.
 */
const explainer = defineCollection({
  loader: glob({ pattern: '*.json', base: './src/content/explainer' }),
  schema: CScoreGuideSchema,
});

export const collections = { changelog, policies, questions, explainer };
