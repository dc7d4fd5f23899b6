import { atom } from 'nanostores';
import { answer, api } from '../lib/client/api-client';
import { ApiError } from '../lib/client/http';

/** Spec section 8: the user fetch failed; the visitor is treated as signed out. */
const USER_FETCH_ERROR = 'Failed to fetch user data';

/** The signed-in state (spec section 4 "Auth"): loading, then signed-out (default) or signed-in. */
export type UserState =
  | { status: 'loading' }
  | { status: 'signed-out'; error?: string }
  | { status: 'signed-in'; isPremium: boolean; username: string; email: string };

/** The current user. */
export const $user = atom<UserState>({ status: 'loading' });

/** Loads the user from GET /api/auth/user; a non-OK answer means signed out. */
export async function loadUser(): Promise<void> {
  try {
    const body = await answer(api.auth.user.$get());
    const user = body.user;
    $user.set(
      body.isAuthenticated && user
        ? { status: 'signed-in', isPremium: Boolean(user.isPremium), username: user.username ?? '', email: user.email ?? '' }
        : { status: 'signed-out' },
    );
  } catch (error) {
    // A refusal (any non-OK answer) is signed out; no answer at all is a failure to say.
    $user.set(error instanceof ApiError ? { status: 'signed-out' } : { status: 'signed-out', error: USER_FETCH_ERROR });
  }
}

/** Spec section 4: sign-in navigates the whole page to the login endpoint with a return path. */
export function signIn(returnTo = location.pathname + location.search): void {
  location.assign(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
}
