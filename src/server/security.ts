/** The security headers every answer carries (DESIGN.md "Security rules that apply everywhere"). */
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Stripe's hosted pages: the upgrade and billing forms answer with a redirect there, which form-action must allow. */
const STRIPE_PAGES = ['https://checkout.stripe.com', 'https://billing.stripe.com'];

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
    formAction: ["'self'", ...STRIPE_PAGES],
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

/**
 * Middleware adding the policy's headers to every answer (static, API, 404 and error answers). `formTargets` adds
 * origins our forms may redirect to besides Stripe's (STRIPE_API_URL's, where the tests' fake Stripe serves Checkout).
 */
export function securityHeaders(formTargets: readonly string[] = []): MiddlewareHandler {
  if (formTargets.length === 0) return secureHeaders(SECURITY_POLICY);
  const { contentSecurityPolicy: csp } = SECURITY_POLICY;
  return secureHeaders({ ...SECURITY_POLICY, contentSecurityPolicy: { ...csp, formAction: [...csp.formAction, ...formTargets] } });
}

/** The policy of one app: its middleware, and the same headers rendered once for answers prepared in advance. */
export interface SecurityPolicy {
  middleware: MiddlewareHandler;
  headers: Readonly<Record<string, string>>;
}

/** The policy with `formTargets` added to form-action (see securityHeaders). */
export async function securityPolicy(formTargets: readonly string[] = []): Promise<SecurityPolicy> {
  const middleware = securityHeaders(formTargets);
  const answer = await new Hono().use(middleware).get('/', (c) => c.body(null)).request('/');
  return { middleware, headers: Object.freeze(Object.fromEntries(answer.headers)) };
}

/** The policy every app has unless it names other form targets. */
export const DEFAULT_SECURITY_POLICY = await securityPolicy();

/** The policy of the pages other sites may frame (/embed/*): the page policy with any ancestor allowed. */
export function framablePolicy(policy: string): string {
  return policy.replace(/(^|;\s*)frame-ancestors [^;]*/, (_whole, lead: string) => `${lead}frame-ancestors *`);
}

/** On the framable pages, the answer's policy lets any site frame them and X-Frame-Options (which cannot) is dropped. */
export function framableAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const policy = c.res.headers.get('Content-Security-Policy');
    if (policy !== null) c.res.headers.set('Content-Security-Policy', framablePolicy(policy));
    c.res.headers.delete('X-Frame-Options');
  };
}

/** A page's Content-Security-Policy: `policy` with the build's inline-script hashes allowed in script-src. */
export function pagePolicy(policy: string, scriptHashes: readonly string[]): string {
  if (scriptHashes.length === 0) return policy;
  return policy.replace(/(^|;\s*)script-src ([^;]*)/, (_whole, lead: string, sources: string) => `${lead}script-src ${sources} ${scriptHashes.join(' ')}`);
}

/**
 * The policy as header name to value, rendered once by the middleware itself: what a CDN's `_headers` file would
 * list, and what an answer prepared in advance (the cached quote) carries.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = DEFAULT_SECURITY_POLICY.headers;
