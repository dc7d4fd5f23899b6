/** The list rows' watch stars: a star toggles its ticker on the watchlist, and every star follows the watchlist. */
import { $watchedSet, toggleWatch } from '../../stores/watchlist';

function showStar(star: HTMLButtonElement, watched: ReadonlySet<string>): void {
  const on = watched.has(star.closest<HTMLElement>('[data-t]')?.dataset.t ?? '');
  if ((star.getAttribute('aria-pressed') === 'true') === on) return;
  star.setAttribute('aria-pressed', String(on));
  star.textContent = on ? '★' : '☆';
}

/** Shows whether a row's star is on the watchlist (a row without a star is left alone). */
export function showRowStar(row: HTMLTableRowElement): void {
  const star = row.querySelector<HTMLButtonElement>('button.star');
  if (star) showStar(star, $watchedSet.get());
}

/** Makes every star of the page watch or unwatch its ticker; `onChange` runs after each change of the watchlist. */
export function enhanceStars(onChange: () => void): void {
  document.addEventListener('click', (event) => {
    const star = (event.target as Element).closest<HTMLButtonElement>('button.star');
    const ticker = star?.closest<HTMLElement>('[data-t]')?.dataset.t;
    if (ticker) toggleWatch(ticker);
  });
  $watchedSet.subscribe((watched) => {
    // The page is rendered with every star off: with an empty watchlist and no star on there is nothing to change,
    // and otherwise only the stars that change are touched. A windowed table's rows outside the page catch up when
    // they come into its window.
    if (watched.size > 0 || document.querySelector('button.star[aria-pressed="true"]')) {
      document.querySelectorAll<HTMLButtonElement>('button.star').forEach((star) => showStar(star, watched));
    }
    onChange();
  });
}
