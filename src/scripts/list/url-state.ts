/**
 * A list's view in its address (DESIGN.md "Lists": the state lives in the URL query) and in the filter form; the
 * rules of the query are lib/domain/signals/table.ts's.
 */
import { parseTableState, tableStateToQuery, type TableState } from '../../lib/domain/signals/table';

/** The view the address asks for. */
export function readUrlState(): TableState {
  return parseTableState(location.search);
}

/** Puts a view in the address, replacing the current history entry. */
export function writeUrlState(state: TableState): void {
  history.replaceState(history.state, '', `${location.pathname}${tableStateToQuery(state)}${location.hash}`);
}

/** The view with the filters the form holds (the sort stays). */
export function readForm(form: HTMLFormElement, state: TableState): TableState {
  const data = new FormData(form);
  const params = new URLSearchParams();
  for (const name of ['q', 'direction', 'sector']) params.set(name, String(data.get(name) ?? ''));
  if (data.get('watched')) params.set('watched', '1');
  const filters = parseTableState(params);
  return { ...state, q: filters.q, direction: filters.direction, sector: filters.sector, watched: filters.watched };
}

/** Shows a view's filters in the form (a sector the list lacks shows as every sector). */
export function fillForm(form: HTMLFormElement, state: TableState): void {
  const field = <T extends HTMLInputElement | HTMLSelectElement>(name: string) => form.elements.namedItem(name) as T | null;
  const q = field<HTMLInputElement>('q');
  if (q) q.value = state.q;
  const direction = field<HTMLSelectElement>('direction');
  if (direction) direction.value = state.direction;
  const sector = field<HTMLSelectElement>('sector');
  if (sector) sector.value = [...sector.options].some((o) => o.value === state.sector) ? state.sector : '';
  const watched = field<HTMLInputElement>('watched');
  if (watched) watched.checked = state.watched;
}
