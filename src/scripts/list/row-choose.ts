/**
 * Choosing a list row opens its stock (spec: the detail dialog opens "when a stock row is chosen"): a click anywhere on
 * the row, or Enter on the focused row, follows its ticker link, which the detail dialog intercepts; the link stays a
 * real link (a middle or modified click opens the page), and the row's star and links keep their own actions. One
 * listener per table, and rows become focusable only as the script shows them: no attribute per row in the page.
 */
import { isPicking, PICK_EVENT } from './compare-pick';

/** What inside a row has an action of its own. */
const OWN_ACTION = 'a, button, input, select, textarea, label, summary, [role="button"]';

function rowLink(row: HTMLTableRowElement): HTMLAnchorElement | null {
  return row.querySelector<HTMLAnchorElement>('a[data-detail-link]');
}

/** Makes a row reachable by Tab and named by its ticker and company (idempotent: a windowed row comes and goes). */
export function makeRowChoosable(row: HTMLTableRowElement): void {
  if (row.tabIndex === 0 || !row.dataset.t) return;
  const link = rowLink(row);
  if (!link) return;
  row.tabIndex = 0;
  const co = row.querySelector<HTMLElement>('.co');
  const company = co?.textContent?.trim();
  row.setAttribute('aria-label', `${row.dataset.t}${company ? `, ${company}` : ''}: open details`);
  // A long company name ends in an ellipsis in its one line (rows keep one height): the whole name on hover.
  if (co && company) co.title = company;
}

/** Opens the row's stock as a plain click on its ticker link would; while its table picks rows to compare, picks it. */
function choose(row: HTMLTableRowElement): void {
  if (isPicking(row.closest('table'))) row.dispatchEvent(new Event(PICK_EVENT, { bubbles: true }));
  else rowLink(row)?.click();
}

/** Lets every row of the table be chosen by click or Enter. */
export function enhanceRowChoice(table: HTMLTableElement): void {
  const body = table.tBodies[0];
  if (!body) return;
  body.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const row = target?.closest<HTMLTableRowElement>('tr[data-t]');
    if (!row || target?.closest(OWN_ACTION)) return;
    // Selecting a row's text is not choosing it.
    if (String(getSelection() ?? '') !== '') return;
    choose(row);
  });
  body.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.target === null || !(event.target instanceof HTMLTableRowElement)) return;
    event.preventDefault();
    choose(event.target);
  });
}
