/**
 * The live-route table: every first path segment under /api that the Node server answers, one row each. The 405
 * guards, the dev proxy, the CDN worker and nginx read it (through routes.ts). To add a live route, mount it in
 * src/server/api.ts and add or extend its row here; tests/integration/site-tables.test.ts fails when one is missing.
 */
import { PER_TICKER_ROUTES } from './routes';

/** The methods a route answers (GET answers HEAD too). */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LiveRoute {
  /** The first path segment under /api. */
  prefix: string;
  /** The methods its routes answer. */
  methods: readonly Method[];
  /**
   * A method none of its routes answers: `refused` is a 405 naming GET and HEAD (on the prefix and below); `not-found`
   * falls through to a 404 (the account routes, which take several methods each).
   */
  otherMethods: 'refused' | 'not-found';
  /** Paths under /api answered only with POST and a JSON body: any other method is a 405 naming POST. */
  postOnly?: readonly string[];
  /** The budget a request may spend: the market-data provider's upstream calls, the AI model's daily tokens, or none. */
  budget: 'market-data' | 'ai-tokens' | null;
  /** The session: never read, read when there is one (the answer varies), or required by some or all of its routes. */
  session: 'none' | 'reads' | 'requires';
  /**
   * Shared caches: `checked` routes pass the safety net that sends a session's answer `private, no-store`
   * (routes/context.ts privateSessionAnswers); `public` ones read no session and skip it, keeping their budget.
   */
  sharedCache: 'checked' | 'public';
  /** Pro only with PAYWALL=on (DESIGN.md's table: Archives and downloads): a session with the Pro plan, else 401/403. */
  paywalled?: true;
  /** The open API's live routes: `Authorization: Bearer KEY` puts a request on the key's own daily allowance. */
  keyed?: true;
  /**
   * The per-ticker checks in front of the build's static JSON: nginx and a CDN serve the file, and only an address
   * without one (an unknown or lower-case ticker) reaches the server; never forwarded as a live route.
   */
  static?: boolean;
}

/** Every live route, in the order the CDN and nginx rules list them. */
export const LIVE_ROUTES: readonly LiveRoute[] = [
  { prefix: 'health', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'none', sharedCache: 'checked', keyed: true },
  { prefix: 'auth', methods: ['GET', 'POST'], otherMethods: 'refused', budget: null, session: 'reads', sharedCache: 'checked' },
  { prefix: 'stock-price', methods: ['GET'], otherMethods: 'refused', budget: 'market-data', session: 'none', sharedCache: 'public', keyed: true },
  { prefix: 'earnings-date', methods: ['GET'], otherMethods: 'refused', budget: 'market-data', session: 'none', sharedCache: 'checked', keyed: true },
  { prefix: 'market-sentiment', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'reads', sharedCache: 'checked', keyed: true },
  { prefix: 'stock-complete-data', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'reads', sharedCache: 'checked', keyed: true },
  { prefix: 'company-info', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'none', sharedCache: 'checked', keyed: true },
  {
    prefix: 'polygon',
    methods: ['GET', 'POST'],
    otherMethods: 'refused',
    postOnly: ['/polygon/company-names', '/polygon/sync-company-info'],
    budget: 'market-data',
    session: 'requires',
    sharedCache: 'checked',
    keyed: true,
  },
  { prefix: 'download-csv', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'reads', sharedCache: 'checked', paywalled: true, keyed: true },
  { prefix: 'download-excel', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'reads', sharedCache: 'checked', paywalled: true, keyed: true },
  { prefix: 'account', methods: ['GET', 'POST'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'watchlist', methods: ['GET', 'PUT', 'POST'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  // The login and account pages' plain form posts.
  { prefix: 'forms', methods: ['GET', 'POST'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'admin', methods: ['GET', 'POST'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'screens', methods: ['GET', 'POST', 'PATCH', 'DELETE'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'alerts', methods: ['GET', 'PUT', 'POST'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'alert-rules', methods: ['GET', 'POST', 'DELETE'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'push', methods: ['GET', 'POST', 'DELETE'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  { prefix: 'ai', methods: ['GET', 'POST'], otherMethods: 'not-found', budget: 'ai-tokens', session: 'requires', sharedCache: 'checked' },
  // The Pro data: a CDN must forward it, never answer it with a static file.
  { prefix: 'pro', methods: ['GET'], otherMethods: 'not-found', budget: null, session: 'requires', sharedCache: 'checked' },
  // The OpenAPI document of the open API.
  { prefix: 'openapi.json', methods: ['GET'], otherMethods: 'refused', budget: null, session: 'none', sharedCache: 'checked' },
  { prefix: 'save-company-name', methods: ['POST'], otherMethods: 'not-found', postOnly: ['/save-company-name'], budget: null, session: 'requires', sharedCache: 'checked' },
  ...PER_TICKER_ROUTES.map((prefix): LiveRoute => ({ prefix, methods: ['GET'], otherMethods: 'not-found', budget: null, session: 'none', sharedCache: 'public', static: true })),
];

/** The live routes' rows a CDN and nginx forward to the server (every row but the static JSON's checks). */
const FORWARDED = LIVE_ROUTES.filter((route) => !route.static);

/** Every forwarded live route's first path segment under /api. */
export const LIVE_PREFIXES: readonly string[] = FORWARDED.map((route) => route.prefix);

/** The forwarded live routes' first path segments under /api whose answers pass the shared-cache safety net. */
export const SESSION_CHECKED_PREFIXES: readonly string[] = FORWARDED.filter((route) => route.sharedCache === 'checked').map((route) => route.prefix);

/** The live routes' first path segments under /api that a key may call on its own allowance. */
export const KEYED_PREFIXES: readonly string[] = LIVE_ROUTES.filter((route) => route.keyed).map((route) => route.prefix);

/** The live routes' first path segments under /api that are Pro only with PAYWALL=on. */
export const PAYWALLED_PREFIXES: readonly string[] = LIVE_ROUTES.filter((route) => route.paywalled).map((route) => route.prefix);

/** The live routes' first path segments under /api whose other methods are a 405 naming GET and HEAD. */
const LIVE_GET_PREFIXES: readonly string[] = FORWARDED.filter((route) => route.otherMethods === 'refused').map((route) => route.prefix);

/** The live routes answered only with POST and a JSON body, as paths under /api. */
export const LIVE_POST_ROUTES: readonly string[] = FORWARDED.flatMap((route) => route.postOnly ?? []);

/** A regular expression source matching a path under /api that the live server answers (the dev proxy's key). */
export const LIVE_API_PATH_SOURCE = `^/api/(${LIVE_PREFIXES.join('|')})(/|$|\\?)`;

/** One 405 guard: the methods it refuses on a path (Hono's pattern, under /api) and the methods its Allow header names. */
export interface MethodGuard {
  refuse: readonly Method[];
  path: string;
  allow: 'POST' | 'GET, HEAD';
}

/**
 * The 405 guards the API mounts after every real route (so a real route wins): the POST-only paths first, since a
 * path may be both POST-only and under a GET prefix, and the first guard that matches answers.
 */
export const METHOD_GUARDS: readonly MethodGuard[] = [
  ...LIVE_POST_ROUTES.map((path): MethodGuard => ({ refuse: ['GET', 'PUT', 'PATCH', 'DELETE'], path, allow: 'POST' })),
  ...LIVE_GET_PREFIXES.flatMap((prefix) => [`/${prefix}`, `/${prefix}/*`].map((path): MethodGuard => ({ refuse: ['POST', 'PUT', 'PATCH', 'DELETE'], path, allow: 'GET, HEAD' }))),
];
