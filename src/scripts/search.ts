/**
 * The ticker search boxes ([data-search]): a combobox over the static index /search-index.json, fetched on first use;
 * Ctrl/Cmd+K focuses the box that takes the shortcut. Without JavaScript the form filters All Signals by text.
 */
import { formatScore } from '../lib/domain/text/format';
import { closestTickers, searchTickers, type SearchEntry } from '../lib/domain/signals/search';
import { classifySignal, signalDirection } from '../lib/domain/signals/signal';
import { fetchSearchIndex } from '../lib/client/static-files';

let index: Promise<SearchEntry[]> | undefined;
/** The search index, fetched once per page. */
export function loadIndex(): Promise<SearchEntry[]> {
  index ??= fetchSearchIndex().catch(() => {
    index = undefined;
    return [];
  });
  return index;
}

/** One result as the search shows it: the ticker, the company, the C-Score and its badge (a dash when locked). */
export function resultContent([ticker, company, cScore]: SearchEntry): Node[] {
  const strong = document.createElement('strong');
  strong.textContent = ticker;
  const name = document.createElement('span');
  name.className = 'sr-co';
  name.textContent = ` ${company}`;
  const score = document.createElement('span');
  score.className = 'sr-score';
  score.textContent = ` ${formatScore(cScore)} `;
  if (cScore === null) return [strong, name, score];
  const badge = document.createElement('span');
  badge.className = `badge badge-${signalDirection(cScore)}`;
  badge.textContent = classifySignal(cScore);
  score.append(badge);
  return [strong, name, score];
}

function enhance(form: HTMLFormElement): void {
  const input = form.querySelector('input')!;
  const list = form.querySelector<HTMLUListElement>('[role=listbox]')!;
  let results: SearchEntry[] = [];
  let active = -1;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (i: number) => {
    active = i;
    list.querySelectorAll('li[role=option]').forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) input.setAttribute('aria-activedescendant', `${list.id}-${i}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const option = (entry: SearchEntry, i: number) => {
    const li = document.createElement('li');
    li.id = `${list.id}-${i}`;
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', 'false');
    li.append(...resultContent(entry));
    li.addEventListener('mousedown', (e) => e.preventDefault());
    li.addEventListener('click', () => location.assign(`/signal/${encodeURIComponent(entry[0])}`));
    return li;
  };
  const render = async () => {
    const entries = await loadIndex();
    results = searchTickers(entries, input.value);
    const empty = input.value.trim() !== '' && results.length === 0;
    // Nothing matched even with typos forgiven: offer the closest tickers, still choosable by arrow keys and Enter.
    if (empty) results = closestTickers(entries, input.value);
    const note = document.createElement('li');
    note.className = 'search-empty';
    note.setAttribute('role', 'presentation');
    note.textContent = 'No ticker or company matches. Closest matches:';
    list.replaceChildren(...(empty ? [note] : []), ...results.map(option));
    const open = input.value.trim() !== '';
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    highlight(results.length && !empty ? 0 : -1);
  };

  input.addEventListener('focus', () => void loadIndex());
  input.addEventListener('input', () => void render());
  input.addEventListener('blur', close);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) return void render();
      const n = results.length;
      if (n) highlight((active + (event.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  form.addEventListener('submit', (event) => {
    const chosen = results[active];
    if (chosen && !list.hidden) {
      event.preventDefault();
      location.assign(`/signal/${encodeURIComponent(chosen[0])}`);
    }
  });
}

/** Turns every [data-search] form into a combobox and binds Ctrl/Cmd+K. */
export function enhanceSearch(): void {
  document.querySelectorAll<HTMLFormElement>('form[data-search]').forEach(enhance);
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      const boxes = [...document.querySelectorAll<HTMLInputElement>('form[data-search] input')];
      // The first visible box: on a phone the sidebar's box is inside the closed drawer.
      const box = boxes.find((b) => b.offsetParent !== null && !b.closest('[inert]')) ?? boxes[0];
      if (!box) return;
      event.preventDefault();
      box.focus();
      box.select();
    }
  });
}
