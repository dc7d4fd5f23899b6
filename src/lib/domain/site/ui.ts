/** Interface constants of spec sections 3 and 9 shared by the stores, the toaster and the page shell's pre-paint script. */

/** The storage key of the theme (spec section 3). */
export const THEME_STORAGE_KEY = 'cardify-theme';
/** The storage key of the sidebar's collapsed state. */
export const SIDEBAR_COLLAPSED_STORAGE_KEY = 'sidebar-collapsed';
/** Swiping a toast right by this much dismisses it. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** A dismissed toast is removed after this delay. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** Below this width the sidebar becomes a drawer (at 200% zoom a fixed sidebar took 40% of the width). */
export const DRAWER_BREAKPOINT_PX = 768;
/** The storage key of the list tables' chosen columns. */
export const TABLE_COLUMNS_STORAGE_KEY = 'table-columns';
/** Theme re-apply debounce. */
export const THEME_DEBOUNCE_MS = 50;
/** Spec section 9: reloads after a chunk load error, at most this many per session. */
export const LOAD_RECOVERY_MAX_RELOADS = 3;
