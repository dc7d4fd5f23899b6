/** The Markdown texts of src/content as the pages render them. */
import { render, type CollectionEntry } from 'astro:content';
import { fillPlaceholders } from './domain/site/editorial';
import { TEXT_PLACEHOLDERS } from './site-meta';

/** A Markdown entry's body as a component. Astro only logs an entry that failed to render; this fails the build. */
export async function renderText(entry: CollectionEntry<'changelog' | 'policies' | 'questions' | 'methodology'>) {
  const where = entry.filePath ?? `${entry.collection}/${entry.id}`;
  if (!entry.rendered) {
    // An unknown placeholder is the usual cause: name it, as the Markdown plugin did in the build's log.
    fillPlaceholders(entry.body ?? '', TEXT_PLACEHOLDERS, where);
    throw new Error(`${where} did not render; the build's log above says why.`);
  }
  return (await render(entry)).Content;
}
