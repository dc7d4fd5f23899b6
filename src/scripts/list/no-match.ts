/**
 * A list filtered down to nothing: besides "No stocks match these filters." and its "Clear filters" link, the rows
 * closest to the text asked for (a typo forgiven or not), each a link to its stock with its C-Score and badge.
 */
import { closestTickers, type SearchEntry } from '../../lib/domain/signals/search';
import { resultContent } from '../search';

/**
 * Shows under a table's no-match line the entries closest to `query` among `entries` (the rows the other filters let
 * through), or nothing when the line is hidden, the query empty or nothing resembles it.
 */
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
  const closest = closestTickers(entries(), query);
  if (closest.length === 0) {
    box.hidden = true;
    return;
  }
  const note = document.createElement('p');
  note.className = 'closest-note';
  note.textContent = 'Closest matches within the other filters:';
  box.replaceChildren(
    note,
    ...closest.map((entry) => {
      const link = document.createElement('a');
      link.href = `/signal/${encodeURIComponent(entry[0])}`;
      link.dataset.detailLink = '';
      link.append(...resultContent(entry));
      return link;
    }),
  );
  box.hidden = false;
}
