/** Where sign-in and sign-out may send the browser back to (DESIGN.md "Security rules": no open redirect). */

/** True for a same-site path: one leading `/`, not `//` or `/\`, and no control characters browsers would drop. */
export function isSafeReturnPath(value: string): boolean {
  return /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f\u007f\\]/.test(value);
}

/** The login return: the path itself when it is safe, else `/`. */
export function loginReturnPath(returnTo: string | undefined): string {
  return returnTo !== undefined && isSafeReturnPath(returnTo) ? encodeLocation(returnTo) : '/';
}

/**
 * A path fit for a Location header: every character outside printable ASCII percent-encoded as UTF-8 (a lone surrogate
 * as U+FFFD), and a `%` that starts no escape encoded too; escapes already there are kept.
 */
export function encodeLocation(path: string): string {
  return path.replace(/[^\x21-\x7e]|%(?![0-9a-fA-F]{2})/gu, (char) => encodeURIComponent(char.isWellFormed() ? char : '\ufffd'));
}

/**
 * The logout return: a safe path, or an absolute URL whose origin is the request's own or the site's
 * (spec section 4 sends the origin), turned into its path; anything else is `/`.
 */
export function logoutReturnPath(returnTo: string | undefined, allowedOrigins: readonly string[]): string {
  if (returnTo === undefined || returnTo === '') return '/';
  if (returnTo.startsWith('/')) return loginReturnPath(returnTo);
  let url: URL;
  try {
    url = new URL(returnTo);
  } catch {
    return '/';
  }
  if (!allowedOrigins.includes(url.origin)) return '/';
  const path = `${url.pathname}${url.search}`;
  return isSafeReturnPath(path) ? encodeLocation(path) : '/';
}
