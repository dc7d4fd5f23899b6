import { atom } from 'nanostores';

/** Spec section 9: one toast at a time, shown for 5000 ms unless a caller asks otherwise. */
export const TOAST_DURATION_MS = 5000;

/** A toast as the Toaster island shows it. */
export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
  durationMs: number;
}

/** The toast on screen, or null; showing a new one replaces the old (spec section 4: only one at a time). */
export const $toast = atom<Toast | null>(null);

let nextId = 1;

/** Shows a toast, replacing any toast on screen. */
export function showToast(toast: Omit<Toast, 'id' | 'variant' | 'durationMs'> & Partial<Pick<Toast, 'variant' | 'durationMs'>>): void {
  $toast.set({ variant: 'default', durationMs: TOAST_DURATION_MS, ...toast, id: nextId++ });
}

/** Removes the toast on screen. */
export function dismissToast(): void {
  $toast.set(null);
}
