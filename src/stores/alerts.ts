/**
 * The signed-in user's alert settings, as the watch button's Alerts section and /account read and change
 * them through /api/alerts/settings. Signed out there is nothing to load.
 */
import { atom } from 'nanostores';
import type { AlertKind } from '../lib/domain/alerts/alerts';

/** What /api/alerts/settings answers. */
export interface AlertSettingsAnswer {
  enabled: boolean;
  kinds: AlertKind[];
  address: string | null;
  accountEmail: string;
  /** The account's email is confirmed (the digest's address when `address` is null). */
  accountEmailConfirmed: boolean;
  /** The owner of `address` opened its confirmation link. */
  addressConfirmed: boolean;
  /** Where the digest goes now; null while the address awaits confirmation. */
  digestTo: string | null;
  hasFeed: boolean;
  /** PAYWALL=on: digests go to Pro accounts only. */
  proOnly: boolean;
  isPremium: boolean;
}

export type AlertSettingsState = { status: 'idle' | 'loading' } | { status: 'ready'; settings: AlertSettingsAnswer } | { status: 'failed'; message: string };

/** The settings once loaded. */
export const $alertSettings = atom<AlertSettingsState>({ status: 'idle' });

async function ask(init?: RequestInit): Promise<void> {
  $alertSettings.set({ status: 'loading' });
  try {
    const response = await fetch('/api/alerts/settings', { credentials: 'include', ...init });
    const body = (await response.json()) as AlertSettingsAnswer & { error?: string };
    if (!response.ok) {
      $alertSettings.set({ status: 'failed', message: body.error ?? `The alert settings could not be read (${response.status}).` });
      return;
    }
    $alertSettings.set({ status: 'ready', settings: body });
  } catch {
    $alertSettings.set({ status: 'failed', message: 'The alert settings could not be reached. Check your connection and try again.' });
  }
}

/** Reads the settings (once; `again` reads them anew). */
export function loadAlertSettings(again = false): Promise<void> {
  if (!again && $alertSettings.get().status !== 'idle') return Promise.resolve();
  return ask();
}

/** Turns the email alerts on or off. */
export function setAlertsEnabled(enabled: boolean): Promise<void> {
  return ask({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enabled }) });
}
