/**
 * A list filtered down to nothing: besides "No stocks match these filters." and its "Clear filters" link, the rows
 * closest to the text asked for (a typo forgiven or not), each a link to its stock with its C-Score and badge.
 */
import { closestTickers, type SearchEntry } from '../../lib/domain/signals/search';
import { resultContent } from '../search';

/** Shows under a table's no-match line the entries closest to `query`, or nothing when the line is hidden or the query empty. */
export function showClosest(noMatch: HTMLElement, entries: () => SearchEntry[], query: string): void {
  let box = noMatch.nextElementSibling instanceof HTMLElement && noMatch.nextElementSibling.matches('[data-no-match-closest]') ? noMatch.nextElementSibling : null;
  if (noMatch.hidden || query.trim() === '') {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = document.createElement('div');
    box.dataset.noMatchClosest = '';
    box.className = 'closest-list table-closest';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Closest matches');
    noMatch.after(box);
  }
  box.replaceChildren(
    ...closestTickers(entries(), query).map((entry) => {
      const link = document.createElement('a');
      link.href = `/signal/${encodeURIComponent(entry[0])}`;
      link.dataset.detailLink = '';
      link.append(...resultContent(entry));
      return link;
    }),
  );
  box.hidden = false;
}
