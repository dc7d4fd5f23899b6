/**
 * The ticker search boxes ([data-search]): a combobox over the static index /search-index.json, fetched on first use;
 * Ctrl/Cmd+K focuses the box that takes the shortcut. Without JavaScript the form filters All Signals by text.
 */
import { searchTickers, type SearchEntry } from '../lib/domain/search';

let index: Promise<SearchEntry[]> | undefined;
function loadIndex(): Promise<SearchEntry[]> {
  index ??= fetch('/search-index.json')
    .then((r) => (r.ok ? (r.json() as Promise<SearchEntry[]>) : []))
    .catch(() => {
      index = undefined;
      return [];
    });
  return index;
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
    list.querySelectorAll('li').forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) input.setAttribute('aria-activedescendant', `${list.id}-${i}`);
    else input.removeAttribute('aria-activedescendant');
  };
  const render = async () => {
    const entries = await loadIndex();
    results = searchTickers(entries, input.value);
    list.replaceChildren(
      ...results.map(([ticker, company], i) => {
        const li = document.createElement('li');
        li.id = `${list.id}-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        const strong = document.createElement('strong');
        strong.textContent = ticker;
        li.append(strong, ` ${company}`);
        li.addEventListener('mousedown', (e) => e.preventDefault());
        li.addEventListener('click', () => location.assign(`/signal/${encodeURIComponent(ticker)}`));
        return li;
      }),
    );
    if (input.value.trim() && results.length === 0) {
      const li = document.createElement('li');
      li.className = 'search-empty';
      li.textContent = 'No ticker or company matches';
      list.append(li);
    }
    const open = input.value.trim() !== '';
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    highlight(results.length ? 0 : -1);
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
