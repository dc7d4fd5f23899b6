/**
 * Spec section 4, "Detail modal: about 150 ms and 300 ms delays before reset on open and close". The dialog's content
 * state is what it shows below its title: the record's cards, or the loading skeleton while the record is fetched.
 */

/**
 * On open: the content of the ticker shown before is dropped at once (never painted under the new title) and the new
 * record is fetched at once; the body is reset to the loading skeleton only when that record has not arrived after
 * 150 ms, so a quick answer (the usual static JSON) goes straight from an empty body to the cards, with no skeleton
 * flashing in between.
 */
export const RESET_ON_OPEN_MS = 150;

/** On close: the content stays 300 ms, so reopening the same ticker at once shows it without a new fetch; then it is dropped. */
export const RESET_AFTER_CLOSE_MS = 300;
