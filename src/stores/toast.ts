import { atom } from 'nanostores';
import { TOAST_REMOVE_DELAY_MS } from '../lib/domain/site/ui';

/** Spec section 9: one toast at a time, shown for 5000 ms unless a caller asks otherwise. */
const TOAST_DURATION_MS = 5000;

/** A toast as the Toaster island shows it. */
interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
  durationMs: number;
  /** False once dismissed: the toast plays its exit and stays closed until it is removed or replaced. */
  open: boolean;
}

/** The current toast, open or dismissed, or null; a new one replaces it (spec section 4: only one at a time). */
export const $toast = atom<Toast | null>(null);

let nextId = 1;
let removal: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast, replacing any toast on screen. */
export function showToast(toast: Omit<Toast, 'id' | 'variant' | 'durationMs' | 'open'> & Partial<Pick<Toast, 'variant' | 'durationMs'>>): void {
  clearTimeout(removal);
  $toast.set({ variant: 'default', durationMs: TOAST_DURATION_MS, ...toast, id: nextId++, open: true });
}

/**
 * Dismisses the toast on screen: it closes at once and is removed TOAST_REMOVE_DELAY_MS later (spec section 9's
 * 1,000,000 ms), unless a new toast replaces it first.
 */
export function dismissToast(): void {
  const toast = $toast.get();
  if (!toast?.open) return;
  $toast.set({ ...toast, open: false });
  clearTimeout(removal);
  removal = setTimeout(() => {
    if ($toast.get()?.id === toast.id) $toast.set(null);
  }, TOAST_REMOVE_DELAY_MS);
}
