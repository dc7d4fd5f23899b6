/**
 * API keys for the open API: the allowances, the key's form, the window and the RateLimit headers, written once.
 * A key only lifts the live routes onto an allowance of its own; the static JSON needs none.
 */
import { z } from '../zod';

/** Requests a key may make to the live routes in one UTC day. Pro's counts only when the site takes payments (PAYWALL=on). */
export const DAILY_KEY_ALLOWANCE = { free: 1_000, pro: 50_000 } as const;

/** Keys an account may hold at once (revoked ones do not count). */
export const MAX_KEYS_PER_ACCOUNT = 5;

/** Every key starts with this, so a leaked one is easy to recognise in a log or a secret scanner. */
export const API_KEY_PREFIX = 'csk_';

/** A key as sent: the prefix and 43 base64url characters (32 random bytes). */
export const API_KEY_PATTERN = /^csk_[A-Za-z0-9_-]{43}$/;

/** The characters of a key shown in the list after it was made, so its owner can tell keys apart. */
export const KEY_START_LENGTH = API_KEY_PREFIX.length + 6;

/**
 * The RateLimit header fields (IETF httpapi draft, the separate-fields form): the day's allowance, what is left, and
 * seconds until the window resets.
 */
export const RATE_LIMIT_HEADERS = { limit: 'RateLimit-Limit', remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset', policy: 'RateLimit-Policy' } as const;

/** The window: one UTC day. */
export const KEY_WINDOW_SECONDS = 86_400;

/** The allowance of a key whose owner has (or has not) Pro, on a site with PAYWALL on or off. */
export function keyAllowance(isPro: boolean, paywall: boolean): number {
  return paywall && isPro ? DAILY_KEY_ALLOWANCE.pro : DAILY_KEY_ALLOWANCE.free;
}

/** The window a moment falls in: its UTC day (the counter's key) and the seconds until it ends. */
export function keyWindow(now: number): { day: string; resetSeconds: number } {
  const day = new Date(now).toISOString().slice(0, 10);
  const end = Date.parse(`${day}T00:00:00Z`) + KEY_WINDOW_SECONDS * 1000;
  return { day, resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)) };
}

/** The RateLimit header fields of a keyed answer, the request counted (`used` includes it). */
export function rateLimitHeaders(limit: number, used: number, resetSeconds: number): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(limit),
    [RATE_LIMIT_HEADERS.remaining]: String(Math.max(0, limit - used)),
    [RATE_LIMIT_HEADERS.reset]: String(resetSeconds),
    [RATE_LIMIT_HEADERS.policy]: `${limit};w=${KEY_WINDOW_SECONDS}`,
  };
}

/** The key in an Authorization header (`Bearer KEY`), or null when the header is not one. */
export function bearerKey(header: string): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match !== null && API_KEY_PATTERN.test(match[1]!) ? match[1]! : null;
}

/** The body of POST /api/account/keys. */
export const NewKeySchema = z.object({ label: z.string().trim().min(1, 'name the key (what uses it)').max(80, 'at most 80 characters') });

/** A key as its owner's list shows it (never its text). */
export const ApiKeyEntrySchema = z.object({
  id: z.string(),
  label: z.string(),
  start: z.string(),
  createdAt: z.string(),
  usedToday: z.number().int(),
});
export type ApiKeyEntry = z.infer<typeof ApiKeyEntrySchema>;
