/**
 * The ticker search boxes ([data-search]): a combobox over the static index /search-index.json, fetched on first use.
 * Ctrl/Cmd+K and the search buttons open the search dialog, visible in every sidebar state and on a phone. Without
 * JavaScript the sidebar's form filters All Signals by text.
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
    placeList(form, list);
    results = searchTickers(entries, input.value);
    const empty = input.value.trim() !== '' && results.length === 0;
    // Nothing matched even with typos forgiven: offer the closest tickers, still choosable by arrow keys and Enter.
    if (empty) results = closestTickers(entries, input.value);
    const note = document.createElement('li');
    note.className = 'search-empty';
    note.setAttribute('role', 'presentation');
    note.textContent = results.length ? 'No ticker or company matches. Closest matches:' : 'No ticker or company matches.';
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

/**
 * The sidebar's results float over the page at a readable width: the sidebar (230 px, and scrolling) would cut them.
 * Anywhere else they keep their place under the box.
 */
function placeList(form: HTMLFormElement, list: HTMLUListElement): void {
  if (!form.closest('.sidebar')) return;
  const box = form.getBoundingClientRect();
  list.style.position = 'fixed';
  list.style.left = `${box.left}px`;
  list.style.top = `${box.bottom + 4}px`;
  list.style.right = 'auto';
  list.style.width = `${Math.max(box.width, Math.min(576, innerWidth - box.left - 16))}px`;
}

/** Opens the search dialog with the focus in its box (its text selected, to type over). */
export function openSearchDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>('dialog[data-search-dialog]');
  const input = dialog?.querySelector<HTMLInputElement>('input');
  if (!dialog || !input) return;
  if (!dialog.open) dialog.showModal();
  input.focus();
  input.select();
}

function enhanceDialog(dialog: HTMLDialogElement): void {
  let opener: Element | null = null;
  const open = () => {
    if (!dialog.open) opener = document.activeElement;
    openSearchDialog();
  };
  document.querySelectorAll('[data-search-open]').forEach((button) => button.addEventListener('click', open));
  dialog.querySelector('[data-search-close]')?.addEventListener('click', () => dialog.close());
  // A click on the backdrop (the dialog box itself, outside its content) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  // Escape closes the dialog once the results list is closed (the combobox takes the first Escape).
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      dialog.close();
    }
  });
  dialog.addEventListener('close', () => {
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    opener = null;
  });
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      open();
    }
  });
}

/** Turns every [data-search] form into a combobox and binds Ctrl/Cmd+K and the search buttons to the search dialog. */
export function enhanceSearch(): void {
  document.querySelectorAll<HTMLFormElement>('form[data-search]').forEach(enhance);
  const dialog = document.querySelector<HTMLDialogElement>('dialog[data-search-dialog]');
  if (dialog) enhanceDialog(dialog);
}
