/** The security headers every answer carries (DESIGN.md "Security rules that apply everywhere"). */
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** The one table of the policy, in hono/secure-headers' terms; securityHeaderTable() renders it as header lines. */
const SECURITY_POLICY = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // No 'unsafe-inline': a page's own inline scripts (Astro's island bootstrap, the theme script) are allowed by their
    // hashes, which the daily job records in build.json and the static server adds to each page's policy.
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'https:'],
    connectSrc: ["'self'"],
    frameSrc: ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
  },
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  xContentTypeOptions: 'nosniff',
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
  permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
  // The library's other defaults are not part of the policy.
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  // A route's own value wins: the logo's sandboxing policy.
  overwrite: false,
} satisfies Parameters<typeof secureHeaders>[0];

/** Middleware adding the policy's headers to every answer (static, API, 404 and error answers). */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders(SECURITY_POLICY);
}

/** The Content-Security-Policy of a page: the policy's, with the build's inline-script hashes allowed in script-src. */
export function pagePolicy(scriptHashes: readonly string[]): string {
  const policy = SECURITY_HEADERS['content-security-policy']!;
  if (scriptHashes.length === 0) return policy;
  return policy.replace(/(^|;\s*)script-src ([^;]*)/, (_whole, lead: string, sources: string) => `${lead}script-src ${sources} ${scriptHashes.join(' ')}`);
}

/**
 * The policy as header name to value, rendered once by the middleware itself: what a CDN's `_headers` file would
 * list, and what an answer prepared in advance (the cached quote) carries.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries((await new Hono().use(securityHeaders()).get('/', (c) => c.body(null)).request('/')).headers),
);
