import { atom } from 'nanostores';

/**
 * Spec section 4, "Detail modal: about 150 ms and 300 ms delays before reset on open and close". The dialog's content
 * state is what it shows below its title: the record's cards, or the loading skeleton while the record is fetched.
 *
 * On open: the content of the ticker shown before is dropped at once (never painted under the new title) and the new
 * record is fetched at once; the body is reset to the loading skeleton only when that record has not arrived after
 * 150 ms, so a quick answer (the usual static JSON) goes straight from an empty body to the cards, with no skeleton
 * flashing in between.
 */
export const RESET_ON_OPEN_MS = 150;

/** On close: the content stays 300 ms, so reopening the same ticker at once shows it without a new fetch; then it is dropped. */
const RESET_AFTER_CLOSE_MS = 300;

/** The list pages' detail dialog: its ticker and whether it is open; null when nothing is mounted. */
export const $detailModal = atom<{ ticker: string; open: boolean } | null>(null);

/** History entries the dialog pushed carry this marker, so Back and Forward know which ones are ours. */
const MARKER = 'detailModal';

let resetTimer: ReturnType<typeof setTimeout> | undefined;

function markedTicker(state: unknown): string | null {
  const ticker = (state as Record<string, unknown> | null)?.[MARKER];
  return typeof ticker === 'string' ? ticker : null;
}

// Opening within RESET_AFTER_CLOSE_MS of a close keeps the dialog mounted; for another ticker the dialog then drops
// the held content itself and waits RESET_ON_OPEN_MS before showing the loading skeleton.
function show(ticker: string): void {
  clearTimeout(resetTimer);
  $detailModal.set({ ticker, open: true });
}

function hide(): void {
  const current = $detailModal.get();
  if (!current?.open) return;
  $detailModal.set({ ...current, open: false });
  resetTimer = setTimeout(() => $detailModal.set(null), RESET_AFTER_CLOSE_MS);
}

/** Opens the dialog for a ticker at the address of its page, /signal/{ticker}, as a new history entry. */
export function openDetailModal(ticker: string): void {
  history.pushState({ [MARKER]: ticker }, '', `/signal/${ticker}`);
  show(ticker);
}

/** Closing by Escape or the close button goes back in history, so the address before the dialog returns. */
export function closeDetailModal(): void {
  if (markedTicker(history.state)) history.back();
  else hide();
}

/** Follows Back and Forward: a history entry the dialog pushed shows its ticker, any other closes the dialog. */
export function followHistory(state: unknown): void {
  const ticker = markedTicker(state);
  if (ticker) show(ticker);
  else hide();
}
