/**
 * The column chooser of the list pages: a checkbox per optional score column, remembered locally
 * (stores/table-columns.ts); every table with optional columns follows the choice.
 */
import { OPTIONAL_COLUMNS, hiddenColumnClasses, type OptionalColumnKey } from '../../lib/domain/signals/table-columns';
import { $shownColumns, showColumn } from '../../stores/table-columns';

/** Wires the chooser when the page has a table with optional columns, and applies the stored choice to those tables. */
export function enhanceColumnChooser(): void {
  const tables = [...document.querySelectorAll<HTMLTableElement>('table[data-optional]')];
  const chooser = document.querySelector<HTMLDetailsElement>('[data-col-chooser]');
  if (!chooser) return;
  // The build shows the chooser on pages with optional columns (CSS shows it from the first frame with JavaScript).
  chooser.hidden = tables.length === 0;
  if (chooser.hidden) return;
  const boxes = [...chooser.querySelectorAll<HTMLInputElement>('input[data-col]')];
  // The chooser sits in the filter form, whose input events re-filter the table: a column change is not a filter.
  chooser.addEventListener('input', (event) => event.stopPropagation());
  for (const box of boxes) box.addEventListener('change', () => showColumn(box.value as OptionalColumnKey, box.checked));
  $shownColumns.subscribe((shown) => {
    const hidden = new Set(hiddenColumnClasses(shown));
    for (const table of tables) {
      for (const column of OPTIONAL_COLUMNS) table.classList.toggle(`hide-${column.key}`, hidden.has(`hide-${column.key}`));
    }
    for (const box of boxes) box.checked = shown.includes(box.value as OptionalColumnKey);
  });
}
