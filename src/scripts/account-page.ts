/**
 * The script of /login and /account (after the first paint, as every page's module script): the return path from
 * the address into the forms, and the session's state into the account page. The forms work without it.
 */
import { $user } from '../stores/user';
import { $alertSettings, loadAlertSettings } from '../stores/alerts';
import { isSafeReturnPath } from '../lib/domain/accounts/return-path';
import { answer, api } from '../lib/client/api-client';
import { ApiError } from '../lib/client/http';

/** /login?returnTo=/path: every form's hidden returnTo takes the path when it is safe (the server checks again). */
export function fillReturnPaths(): void {
  const returnTo = new URLSearchParams(location.search).get('returnTo');
  if (returnTo === null || !isSafeReturnPath(returnTo)) return;
  for (const input of document.querySelectorAll<HTMLInputElement>('input[data-return-to]')) input.value = returnTo;
}

/** A form refused or in error comes back with what was typed in `?email=`: it goes back into every empty email box. */
export function fillTypedEmail(): void {
  const email = new URLSearchParams(location.search).get('email');
  if (!email) return;
  for (const input of document.querySelectorAll<HTMLInputElement>('input[type="email"]')) if (input.value === '') input.value = email;
}

/** /login's links to its forms: the one whose form shows is the current one (aria-current), kept as the fragment changes. */
export function markLoginTab(): void {
  const tabs = [...document.querySelectorAll<HTMLAnchorElement>('a[data-login-tab]')];
  const mark = () => {
    const shown = tabs.find((tab) => {
      const panel = document.getElementById(tab.hash.slice(1));
      return panel !== null && getComputedStyle(panel).display !== 'none';
    });
    for (const tab of tabs) {
      if (tab === shown) tab.setAttribute('aria-current', 'true');
      else tab.removeAttribute('aria-current');
    }
  };
  mark();
  addEventListener('hashchange', mark);
}

/** /account: signed in, the email and plan and the settings; signed out, only the note to sign in. */
export function showAccount(): void {
  const set = (selector: string, text: string) => {
    for (const el of document.querySelectorAll(selector)) el.textContent = text;
  };
  $user.subscribe((user) => {
    if (user.status === 'loading') return;
    const signedIn = user.status === 'signed-in';
    for (const el of document.querySelectorAll<HTMLElement>('[data-signed-in]')) el.hidden = !signedIn;
    for (const el of document.querySelectorAll<HTMLElement>('[data-signed-out]')) el.hidden = signedIn;
    const premium = signedIn && user.isPremium;
    for (const el of document.querySelectorAll<HTMLElement>('[data-free-only]')) el.hidden = premium;
    set('[data-account-page-email]', signedIn ? user.email : '');
    set('[data-account-page-plan]', premium ? 'Pro (Premium Account)' : 'Free (Free Account)');
  });
}

/** /account's Alerts section: the saved settings into its form, and a new private feed address shown in the page. */
export function showAlertSettings(): void {
  const form = document.querySelector<HTMLFormElement>('[data-alert-settings]');
  const feedForm = document.querySelector<HTMLFormElement>('[data-feed-token]');
  const feedState = document.querySelector<HTMLElement>('[data-feed-state]');
  const feedUrls = document.querySelector<HTMLElement>('[data-feed-urls]');
  const addressState = document.querySelector<HTMLElement>('[data-alert-address-state]');
  const resend = document.querySelector<HTMLFormElement>('[data-alert-resend]');
  if (!form || !feedForm || !feedState || !feedUrls || !addressState || !resend) return;
  $user.subscribe((user) => {
    if (user.status === 'signed-in') void loadAlertSettings();
  });
  $alertSettings.subscribe((state) => {
    if (state.status !== 'ready') return;
    const { settings } = state;
    form.querySelector<HTMLInputElement>('[data-alert-enabled]')!.checked = settings.enabled;
    for (const box of form.querySelectorAll<HTMLInputElement>('[data-alert-kind]')) box.checked = settings.kinds.includes(box.value as never);
    const address = form.querySelector<HTMLInputElement>('[data-alert-address]')!;
    address.value = settings.address ?? '';
    address.placeholder = settings.accountEmail;
    // No alert email goes to an address its owner has not confirmed: say which one waits, and offer the link again.
    const awaiting = settings.digestTo === null;
    addressState.textContent = awaiting
      ? `Awaiting confirmation: open the link we emailed to ${settings.address ?? settings.accountEmail}. No alert email goes there until then.`
      : `Alert emails go to ${settings.digestTo}.`;
    resend.hidden = !awaiting;
    feedState.textContent = settings.hasFeed ? 'You have a private feed address. Make a new one if you lost it or it leaked.' : 'No private feed address yet.';
  });
  feedForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      let urls;
      try {
        urls = await answer(api.alerts['feed-token'].$post());
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        feedUrls.textContent = 'Error: the feed address could not be made. Sign in again, then try once more.';
        return;
      }
      const list = document.createElement('ul');
      for (const [name, url] of [['Atom', urls.atom], ['JSON Feed', urls.json]] as const) {
        const item = document.createElement('li');
        const code = document.createElement('code');
        code.textContent = url;
        code.dataset.feedUrl = name;
        item.append(`${name}: `, code);
        list.append(item);
      }
      const note = document.createElement('p');
      note.textContent = 'Your new feed addresses, shown this once (the old ones no longer work):';
      feedUrls.replaceChildren(note, list);
      feedState.textContent = 'You have a private feed address. Make a new one if you lost it or it leaked.';
    })();
  });
}
