import type { MiddlewareHandler } from 'hono';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // Astro inlines the bootstrap script of every React island.
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** The security headers every response carries (DESIGN.md "Security rules that apply everywhere"). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
});

const ENTRIES = Object.entries(SECURITY_HEADERS);

// Responses built with SECURITY_HEADERS already in their header object: skipping them keeps the
// static hot path from turning a plain header object into a Headers instance.
const secured = new WeakSet<Response>();

/** Records that a response was built with SECURITY_HEADERS, so the middleware leaves it as it is. */
export function markSecured(response: Response): Response {
  secured.add(response);
  return response;
}

/** Middleware adding SECURITY_HEADERS to every response (static, API, 404 and error answers); a route's own value wins. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (secured.has(c.res)) return;
    try {
      addMissing(c.res.headers);
    } catch {
      // A Response from fetch() has immutable headers: copy it into one we may change.
      c.res = new Response(c.res.body, c.res);
      addMissing(c.res.headers);
    }
  };
}

function addMissing(headers: Headers): void {
  for (const [name, value] of ENTRIES) {
    if (!headers.has(name)) headers.set(name, value);
  }
}
