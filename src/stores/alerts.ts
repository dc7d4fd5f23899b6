/**
 * The signed-in user's alert settings, as the watch button's Alerts section and /account read and change
 * them through /api/alerts/settings. Signed out there is nothing to load.
 */
import { atom } from 'nanostores';
import { answer, api, type AnswerOf } from '../lib/client/api-client';
import { ApiError } from '../lib/client/http';

/**
 * What /api/alerts/settings answers (typed by the server): enabled, kinds, address, accountEmail,
 * accountEmailConfirmed (the digest's address when `address` is null), addressConfirmed (the owner of `address`
 * opened its link), digestTo (null while the address awaits confirmation), hasFeed, proOnly (PAYWALL=on: digests go to
 * Pro accounts only), isPremium.
 */
export type AlertSettingsAnswer = AnswerOf<typeof api.alerts.settings.$get>;

export type AlertSettingsState = { status: 'idle' | 'loading' } | { status: 'ready'; settings: AlertSettingsAnswer } | { status: 'failed'; message: string };

/** The settings once loaded. */
export const $alertSettings = atom<AlertSettingsState>({ status: 'idle' });

const UNREACHABLE = 'The alert settings could not be reached. Check your connection and try again.';

async function ask(call: () => ReturnType<typeof api.alerts.settings.$get | typeof api.alerts.settings.$put>): Promise<void> {
  $alertSettings.set({ status: 'loading' });
  try {
    $alertSettings.set({ status: 'ready', settings: await answer(call()) });
  } catch (error) {
    // A refusal says the server's sentence; an answer that is no JSON reads as no answer.
    const refused = error instanceof ApiError && error.body !== undefined;
    $alertSettings.set({ status: 'failed', message: refused ? (error.serverError ?? `The alert settings could not be read (${error.status}).`) : UNREACHABLE });
  }
}

/** Reads the settings (once; `again` reads them anew). */
export function loadAlertSettings(again = false): Promise<void> {
  if (!again && $alertSettings.get().status !== 'idle') return Promise.resolve();
  return ask(() => api.alerts.settings.$get());
}

/** Turns the email alerts on or off. */
export function setAlertsEnabled(enabled: boolean): Promise<void> {
  return ask(() => api.alerts.settings.$put({ json: { enabled } }));
}
