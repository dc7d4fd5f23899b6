import { persistentAtom } from '@nanostores/persistent';
import { THEME_DEBOUNCE_MS, THEME_STORAGE_KEY } from '../lib/domain/site/ui';

/** Spec section 4: dark, light, or the OS preference. */
export type Theme = 'dark' | 'light' | 'system';

const THEMES: readonly Theme[] = ['dark', 'light', 'system'];

/** The chosen theme, saved under cardify-theme; dark when none is saved. */
export const $theme = persistentAtom<Theme>(THEME_STORAGE_KEY, 'dark', {
  encode: (value) => value,
  decode: (text) => (THEMES.includes(text as Theme) ? (text as Theme) : 'dark'),
});

/** The theme after the toggle: dark, then light, then system, then dark again. */
export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
}

/** The theme a page shows: system resolves to the OS preference. */
function resolveTheme(theme: Theme): 'dark' | 'light' {
  if (theme !== 'system') return theme;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** Applies the theme's class on the document root, debounced by 50 ms (spec section 4). */
export function applyTheme(theme: Theme = $theme.get()): void {
  clearTimeout(timer);
  timer = setTimeout(() => document.documentElement.classList.toggle('dark', resolveTheme(theme) === 'dark'), THEME_DEBOUNCE_MS);
}

/** Saves a theme and applies it. */
export function setTheme(theme: Theme): void {
  $theme.set(theme);
  applyTheme(theme);
}
