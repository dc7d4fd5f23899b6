/**
 * How the Markdown texts of src/content render (registered in astro.config.mjs): quotes and dashes stay as written,
 * and each `{NAME}` placeholder is filled from the settings, so a text that names the product follows SITE_NAME.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { fillPlaceholders } from './domain/site/editorial';

/** The part of the Sätteri processor's options this integration sets. */
interface SatteriOptions {
  features: { smartPunctuation?: boolean };
  mdastPlugins: object[];
}

/** A Sätteri mdast plugin that fills the placeholders of every text node; an unknown one fails the build. */
export function placeholderPlugin(values: Readonly<Record<string, string>>) {
  return {
    name: 'c-score:placeholders',
    // Part of the Astro config's digest, so a changed SITE_NAME renders the cached texts again.
    values,
    text(node: { value: string }, context: { fileURL?: URL | undefined }) {
      if (!node.value.includes('{')) return undefined;
      const where = context.fileURL ? relative(process.cwd(), fileURLToPath(context.fileURL)) : 'a Markdown text';
      return { type: 'text' as const, value: fillPlaceholders(node.value, values, where) };
    },
  };
}

/** The integration: smart punctuation off (the spec's texts use straight quotes) and the placeholder plugin on. */
export function editorialMarkdown(values: Readonly<Record<string, string>>): AstroIntegration {
  return {
    name: 'c-score:editorial-markdown',
    hooks: {
      'astro:config:setup': ({ config }) => {
        const processor = config.markdown.processor;
        if (processor?.name !== 'satteri') {
          throw new Error(`The texts of src/content need Astro's Sätteri Markdown processor, not ${processor?.name ?? 'none'}.`);
        }
        const options = processor.options as SatteriOptions;
        options.features.smartPunctuation = false;
        options.mdastPlugins.push(placeholderPlugin(values));
      },
    },
  };
}
