/** Interface constants of spec section 9 shared by the toaster, dialogs and tooltips. */

/** Tooltip open delay. */
export const TOOLTIP_DELAY_MS = 700;
/** Tooltip skip delay: moving between triggers within this time opens the next one at once. */
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** Tooltip side. */
export const TOOLTIP_SIDE = 'top';
/** Tooltip distance from its trigger. */
export const TOOLTIP_OFFSET_PX = 4;
/** Swiping a toast right by this much dismisses it. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** A dismissed toast is removed after this delay. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** The toast viewport's stacking level. */
export const TOAST_Z_INDEX = 100;
/** The dialogs' stacking level. */
export const DIALOG_Z_INDEX = 200;
/** Below this width the sidebar becomes a drawer and dialogs fill the screen. */
export const MOBILE_BREAKPOINT_PX = 640;
/** Theme re-apply debounce. */
export const THEME_DEBOUNCE_MS = 50;
/** Spec section 9: reloads after a chunk load error, at most this many per session. */
export const LOAD_RECOVERY_MAX_RELOADS = 3;
