import { persistentAtom } from '@nanostores/persistent';
import { DEFAULT_SHOWN_COLUMNS, parseShownColumns, serializeShownColumns, type OptionalColumnKey } from '../lib/domain/signals/table-columns';
import { TABLE_COLUMNS_STORAGE_KEY } from '../lib/domain/site/ui';

/** The list tables' optional columns the reader shows, remembered in localStorage and shared between tabs. */
export const $shownColumns = persistentAtom<OptionalColumnKey[]>(TABLE_COLUMNS_STORAGE_KEY, [...DEFAULT_SHOWN_COLUMNS], {
  encode: serializeShownColumns,
  decode: parseShownColumns,
});

/** Shows or hides one optional column on every list table. */
export function showColumn(key: OptionalColumnKey, shown: boolean): void {
  const current = new Set($shownColumns.get());
  if (shown) current.add(key);
  else current.delete(key);
  $shownColumns.set(parseShownColumns(serializeShownColumns(current)));
}
