/**
 * The script of /login and /account (after the first paint, as every page's module script): the return path from
 * the address into the forms, and the session's state into the account page. The forms work without it.
 */
import { $user } from '../stores/user';
import { isSafeReturnPath } from '../lib/domain/return-path';

/** /login?returnTo=/path: every form's hidden returnTo takes the path when it is safe (the server checks again). */
export function fillReturnPaths(): void {
  const returnTo = new URLSearchParams(location.search).get('returnTo');
  if (returnTo === null || !isSafeReturnPath(returnTo)) return;
  for (const input of document.querySelectorAll<HTMLInputElement>('input[data-return-to]')) input.value = returnTo;
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
