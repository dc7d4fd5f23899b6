/** The security headers every answer carries (DESIGN.md "Security rules that apply everywhere"). */
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** The one table of the policy, in hono/secure-headers' terms; securityHeaderTable() renders it as header lines. */
const SECURITY_POLICY = {
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // Astro inlines the bootstrap script of every React island.
    scriptSrc: ["'self'", "'unsafe-inline'"],
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

/**
 * The policy as header name to value, rendered once by the middleware itself: what a CDN's `_headers` file would
 * list, and what an answer prepared in advance (the cached quote) carries.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries((await new Hono().use(securityHeaders()).get('/', (c) => c.body(null)).request('/')).headers),
);
