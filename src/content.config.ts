/**
 * The editorial texts, one collection per kind; an entry whose front matter does not match its schema fails the
 * build with every problem listed. Markdown texts may write {SITE_NAME}, {FREE_PLAN} and {PRO_PLAN} where the
 * product's name or a plan belongs (src/lib/site-meta.ts fills them), and every text {BULLISH_THRESHOLD} and
 * {BEARISH_THRESHOLD} where a threshold does (the explainer only these two: the browser fills them).
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import type { z } from 'zod';
import { CScoreGuideSchema, MethodologySchema, PolicySchema, QuestionSchema, ReleaseSchema } from './lib/domain/site/editorial';

/** The files of src/content/{folder} matching `pattern`, each checked by `schema`. */
const files = <S extends z.ZodType>(folder: string, pattern: string, schema: S) =>
  defineCollection({ loader: glob({ pattern, base: `./src/content/${folder}` }), schema });

export const collections = {
  /** The changelog, one file per release; the page lists them newest first by `date`. */
  changelog: files('changelog', '*.md', ReleaseSchema),
  /** The policy pages, one file each: terms.md is /terms, privacy.md is /privacy. */
  policies: files('policies', '*.md', PolicySchema),
  /** The Learn page's questions, one file each, listed by `order`. */
  questions: files('questions', '*.md', QuestionSchema),
  /**
   * The C-Score interpretation guide of the stock page and the stock dialog. JSON, not Markdown: the dialog renders
   * it in the browser, which imports the file itself; this collection checks it at build time.
   */
  explainer: files('explainer', '*.json', CScoreGuideSchema),
  /** The methodology page (/methodology): one entry, with its version, date and changelog. */
  methodology: files('methodology', '*.md', MethodologySchema),
};
