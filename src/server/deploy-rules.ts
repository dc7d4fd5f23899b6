/**
 * The deploy rules the daily job writes with every build (docs/deploy.md), rendered from the Node server's own
 * tables so a CDN and nginx answer as `npm start` does: the live routes and the pages (lib/domain/site/live-routes.ts,
 * pages.ts, routes.ts), the security headers and the page policy with the build's script hashes (security.ts), the
 * cache rules (static.ts), the body limits (body-limits.ts) and the content types serveStatic sends.
 *   client/_headers, client/_redirects: Cloudflare Pages' (and Netlify's) header and rewrite rules;
 *   client/_worker.js, client/_routes.json: the Pages Function that forwards the live routes to API_ORIGIN and
 *     answers the not-found screens' own addresses with 404;
 *   nginx/http.conf, nginx/server.conf: included by deploy/nginx/c-score-signals.conf.
 */
import { mkdir, copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getMimeType } from 'hono/utils/mime';
import { FILTERABLE_LIST_PATHS } from '../lib/domain/signals/list-filter';
import { SCREENER_PATH } from '../lib/domain/signals/screener-page';
import { MAX_UPLOAD_REQUEST_BYTES } from '../lib/domain/operator/operator';
import {
  DEPLOY_RULE_FILES,
  NOT_FOUND_PAGE,
  OPERATOR_PAGES,
  PER_TICKER_ROUTES,
  REPORT_ROUTES,
  STOCK_NOT_FOUND_CDN_PAGE,
  STOCK_NOT_FOUND_PAGE,
} from '../lib/domain/site/routes';
import { LIVE_PREFIXES } from '../lib/domain/site/live-routes';
import { BODY_LIMITS } from './body-limits';
import { framablePolicy, pagePolicy, SECURITY_HEADERS } from './security';
import { EMBED_PATH_PREFIX } from '../lib/domain/site/embed';
import { BADGE_CACHE, BADGES, EDGE_REVALIDATE, HASHED_ASSETS, IMMUTABLE, REVALIDATE } from './static';

/** What the rules depend on besides the tables. */
export interface DeployRulesOptions {
  /** The build's inline-script hashes (build.json `scriptHashes`). */
  scriptHashes: readonly string[];
  /** API_ORIGIN: where the Pages Function forwards the live routes; null: it answers them 503 saying so. */
  apiOrigin: string | null;
  /** The security headers; default SECURITY_HEADERS (an app with more form targets passes its policy's). */
  securityHeaders?: Readonly<Record<string, string>>;
}

/** The name nginx's upstream block of the API processes has in deploy/nginx/c-score-signals.conf. */
export const NGINX_UPSTREAM = 'c_score_api';

const GENERATED = 'Written by the daily job with every build from the Node server\'s own tables (src/server/deploy-rules.ts); the next build replaces it.';

/** The extensions the build holds, with the type serveStatic sends for each (JSON with its charset, as static.ts sends it). */
const FILE_TYPES = ['html', 'css', 'js', 'mjs', 'json', 'svg', 'xml', 'txt', 'png', 'jpg', 'jpeg', 'webp', 'avif', 'gif', 'ico', 'webmanifest', 'woff', 'woff2', 'map', 'csv', 'pdf'].map(
  (ext) => [ext, ext === 'json' ? 'application/json; charset=utf-8' : (getMimeType(`file.${ext}`) ?? 'application/octet-stream')] as const,
);

function policies(options: DeployRulesOptions): { general: Readonly<Record<string, string>>; page: string } {
  const general = options.securityHeaders ?? SECURITY_HEADERS;
  return { general, page: pagePolicy(general['content-security-policy']!, options.scriptHashes) };
}

/** The live API's addresses (each prefix and everything below it) and the operators' pages: what goes to the API origin. */
export function forwardedPaths(): string[] {
  return [...LIVE_PREFIXES.flatMap((prefix) => [`/api/${prefix}`, `/api/${prefix}/*`]), ...OPERATOR_PAGES.flatMap((page) => [page, `${page}/*`])];
}

/** The addresses of the not-found screens' own files, which answer their page with 404, by the page that answers. */
export function notFoundAddresses(): Record<string, string> {
  const stock = `/${STOCK_NOT_FOUND_PAGE}`.slice(0, -'index.html'.length);
  return {
    [stock.slice(0, -1)]: STOCK_NOT_FOUND_PAGE,
    [stock]: STOCK_NOT_FOUND_PAGE,
    [`/${STOCK_NOT_FOUND_PAGE}`]: STOCK_NOT_FOUND_PAGE,
    [`/${STOCK_NOT_FOUND_CDN_PAGE}`]: STOCK_NOT_FOUND_PAGE,
    [`/${NOT_FOUND_PAGE}`]: NOT_FOUND_PAGE,
    ...Object.fromEntries(DEPLOY_RULE_FILES.map((file) => [`/${file}`, NOT_FOUND_PAGE])),
  };
}

/** `_headers`: every answer's security headers with the page policy, short edge caching; a year for hashed assets; assets and JSON keep the general policy. */
export function headersFile(options: DeployRulesOptions): string {
  const { general, page } = policies(options);
  const lines = [`# ${GENERATED}`, '/*'];
  for (const [name, value] of Object.entries(general)) lines.push(`  ${name}: ${name === 'content-security-policy' ? page : value}`);
  lines.push(`  cache-control: ${EDGE_REVALIDATE}`);
  // Two matching rules would join their values with a comma: `!` detaches the earlier one first.
  const generalPolicy = ['  ! content-security-policy', `  content-security-policy: ${general['content-security-policy']}`];
  lines.push(`${HASHED_ASSETS}*`, '  ! cache-control', `  cache-control: ${IMMUTABLE}`, ...generalPolicy);
  lines.push(`${BADGES}*`, '  ! cache-control', `  cache-control: ${BADGE_CACHE}`, ...generalPolicy);
  lines.push('/api/*', ...generalPolicy);
  // The embeddable cards: any site may frame them, so X-Frame-Options (which cannot say so) goes.
  lines.push(`${EMBED_PATH_PREFIX}*`, '  ! x-frame-options', '  ! content-security-policy', `  content-security-policy: ${framablePolicy(page)}`);
  return `${lines.join('\n')}\n`;
}

/** `_redirects`: the extensionless static API addresses read their `.json` file (a 200 rewrite); the archives' first page has one address. */
export function redirectsFile(): string {
  const lines = [`# ${GENERATED}`];
  for (const route of REPORT_ROUTES) lines.push(`/api/${route} /api/${route}.json 200`);
  for (const route of PER_TICKER_ROUTES) lines.push(`/api/${route}/:ticker /api/${route}/:ticker.json 200`);
  lines.push('/archives/1 /archives 301', '/archives/1/ /archives 301');
  return `${lines.join('\n')}\n`;
}

/** `_routes.json`: the requests the Pages Function runs for; every other one is a static file under `_headers`/`_redirects`. */
export function routesFile(): string {
  // The rule files too: Pages never serves them, a Workers static-assets host would, and the Function answers them 404.
  const include = [...forwardedPaths(), ...Object.keys(notFoundAddresses())];
  return `${JSON.stringify({ version: 1, description: GENERATED, include, exclude: [] }, null, 2)}\n`;
}

/**
 * `_worker.js`: the Pages Function (advanced mode). The live routes and the operators' pages go to API_ORIGIN (the
 * Pages environment variable wins over the origin the build knew) with the visitor's address in X-Forwarded-For; the
 * not-found screens' own addresses answer their page with 404; anything else is the static file.
 */
export function workerFile(options: DeployRulesOptions): string {
  const { general, page } = policies(options);
  const forwarded = forwardedPaths().map((path) => (path.endsWith('/*') ? `${path.slice(0, -1)}` : path));
  const headers = { ...general, 'content-security-policy': page, 'cache-control': EDGE_REVALIDATE, 'content-type': 'text/html; charset=utf-8' };
  return `// ${GENERATED}
const BUILT_API_ORIGIN = ${JSON.stringify(options.apiOrigin)};
const FORWARDED = ${JSON.stringify(forwarded)};
const NOT_FOUND = ${JSON.stringify(notFoundAddresses())};
const PAGE_HEADERS = ${JSON.stringify(headers)};
const JSON_HEADERS = ${JSON.stringify({ ...general, 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' })};

function forwards(path) {
  return FORWARDED.some((rule) => (rule.endsWith('/') ? path.startsWith(rule) : path === rule));
}

async function notFoundPage(env, url, file) {
  let answer = await env.ASSETS.fetch(new URL('/' + file, url));
  // Pages answers a file's .html address with a redirect to its pretty address: follow it once.
  const location = answer.headers.get('location');
  if (answer.status >= 300 && answer.status < 400 && location) answer = await env.ASSETS.fetch(new URL(location, url));
  return new Response(answer.body, { status: 404, headers: PAGE_HEADERS });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (forwards(url.pathname)) {
      const origin = env.API_ORIGIN || BUILT_API_ORIGIN;
      if (!origin) {
        const error = 'The live API is not configured: set API_ORIGIN in the Pages project (or before the daily job) to the address of the Node API.';
        return new Response(JSON.stringify({ error }), { status: 503, headers: JSON_HEADERS });
      }
      const headers = new Headers(request.headers);
      const visitor = request.headers.get('cf-connecting-ip');
      if (visitor) headers.set('x-forwarded-for', visitor);
      headers.set('x-forwarded-host', url.host);
      headers.set('x-forwarded-proto', url.protocol.slice(0, -1));
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return fetch(new URL(url.pathname + url.search, origin), { method: request.method, headers, body: hasBody ? request.body : undefined, redirect: 'manual' });
    }
    const file = NOT_FOUND[url.pathname];
    if (file !== undefined) return notFoundPage(env, url, file);
    return env.ASSETS.fetch(request);
  },
};
`;
}

/**
 * nginx's http-level include: the Content-Security-Policy by the answer's type, pages getting the build's script
 * hashes; a 304 has no type, so there the file's name decides (a page's 304 keeps the page policy, as in static.ts).
 */
export function nginxHttpFile(options: DeployRulesOptions): string {
  const { general, page } = policies(options);
  return `# ${GENERATED}
map "$sent_http_content_type|$uri" $c_score_csp {
    "~^(text/html[^|]*)?\\|${EMBED_PATH_PREFIX}" ${quote(framablePolicy(page))};
    ~^text/html ${quote(page)};
    "~^\\|.*\\.html$" ${quote(page)};
    default ${quote(general['content-security-policy']!)};
}
# The embeddable cards may be framed by any site: no X-Frame-Options there (an empty value sends no header).
map $uri $c_score_xfo {
    ${quote(`~^${EMBED_PATH_PREFIX}`)} "";
    default ${quote(general['x-frame-options']!)};
}
`;
}

function quote(value: string): string {
  if (/["\\$\n]/.test(value)) throw new Error(`A header value for nginx holds a character it cannot quote: ${value}`);
  return `"${value}"`;
}

/** nginx's server-level include: static files as the Node server answers them, everything dynamic to the API processes. */
export function nginxServerFile(options: DeployRulesOptions): string {
  const { general } = policies(options);
  const headers = (cache: string) =>
    [
      ...Object.entries(general).map(([name, value]) => `add_header ${name} ${name === 'content-security-policy' ? '$c_score_csp' : name === 'x-frame-options' ? '$c_score_xfo' : quote(value)} always;`),
      `add_header cache-control ${quote(cache)} always;`,
      'add_header vary Accept-Encoding always;',
    ].map((line) => `        ${line}`);
  const pageHeaders = headers(REVALIDATE).join('\n');
  const assetHeaders = headers(IMMUTABLE).join('\n');
  const limits = BODY_LIMITS.filter(([, bytes]) => bytes !== null).map(([, bytes]) => bytes!);
  const uploads = BODY_LIMITS.filter(([, bytes]) => bytes === null).map(([prefix]) => prefix);
  const alternation = (items: readonly string[]) => items.map((item) => item.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  const lists = [...FILTERABLE_LIST_PATHS, SCREENER_PATH].map((path) => (path === '/' ? '' : path.slice(1)));
  const notFound = notFoundAddresses();
  // The two pages error_page sends to are internal: asked for directly they are a 404, which serves them.
  const served = [`/${STOCK_NOT_FOUND_CDN_PAGE}`, `/${NOT_FOUND_PAGE}`];
  const exact = Object.entries(notFound)
    .map(([path, file]) => {
      const page = `/${file === STOCK_NOT_FOUND_PAGE ? STOCK_NOT_FOUND_CDN_PAGE : NOT_FOUND_PAGE}`;
      if (served.includes(path)) return `    location = ${path} {\n        internal;\n${pageHeaders}\n        error_page 404 ${page};\n    }`;
      return `    location = ${path} {\n        error_page 404 ${page};\n        return 404;\n    }`;
    })
    .join('\n');
  const types = FILE_TYPES.map(([ext, type]) => `        ${quote(type)} ${ext};`).join('\n');
  return `# ${GENERATED}
# Static files as \`npm start\` serves them (src/server/static.ts): the precompressed .gz beside each text file, the
# extensionless static API addresses read as .json, the not-found screens with status 404, Cache-Control by kind of
# file and the security headers; every live route and every address only the server can answer goes to the
# ${NGINX_UPSTREAM} upstream (the Node processes), with the visitor's address in X-Forwarded-For.
    types {
${types}
    }
    default_type application/octet-stream;
    charset off;
    gzip off;
    gzip_static on;
    etag on;
    server_tokens off;
    absolute_redirect off;
    # The largest body a route takes (src/server/body-limits.ts); the server checks each route's own limit.
    client_max_body_size ${Math.max(...limits)};
    error_page 404 /${NOT_FOUND_PAGE};
    # Only GET and HEAD are static: any other method is the server's to answer (a 405, or a live route's).
    error_page 418 = @api;
    if ($request_method !~ ^(GET|HEAD)$) {
        return 418;
    }

    location @api {
        proxy_pass http://${NGINX_UPSTREAM};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Request-Id $request_id;
        # A process that stops (a restart, SIGTERM) refuses new connections: the request goes to the next one.
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 3;
        proxy_buffering on;
    }

    location / {
${pageHeaders}
        try_files $uri $uri/index.html =404;
    }

    location ${HASHED_ASSETS} {
${assetHeaders}
        try_files $uri =404;
    }

    location ${BADGES} {
${headers(BADGE_CACHE).join('\n')}
        try_files $uri =404;
    }

    # The static API: api/<route>.json and api/<route>/<TICKER>.json; an address without a file (a lower-case or
    # unknown ticker, a malformed one) is the server's, which answers the 301, 404 or 400 with its message.
    location /api/ {
${pageHeaders}
        try_files $uri.json @api;
    }

    # Uploads hold each file to their own limit (src/server/uploads.ts).
    location ~ ^(${alternation(uploads)}) {
        client_max_body_size ${MAX_UPLOAD_REQUEST_BYTES};
        try_files /nonexistent @api;
    }

    # The live routes.
    location ~ ^/api/(${alternation(LIVE_PREFIXES)})(/|$) {
        try_files /nonexistent @api;
    }

    # The operators' pages: the server checks the role.
    location ~ ^(${alternation(OPERATOR_PAGES)})(/|$) {
        try_files /nonexistent @api;
    }

    # Addresses the server redirects: /signal/aapl to /signal/AAPL, /archives/1 to /archives.
    location ~ ^/signal/[^/]*[a-z] {
        try_files /nonexistent @api;
    }
    location ~ ^/archives/1/?$ {
        try_files /nonexistent @api;
    }

    # The not-found screens: a missing /signal/* page is the Stock Not Found screen.
    location /signal/ {
${pageHeaders}
        error_page 404 /${STOCK_NOT_FOUND_CDN_PAGE};
        try_files $uri $uri/index.html =404;
    }
${exact}

    # A list page with a filter query, and the screener with its screen, are rendered by the server (no JavaScript needed).
    location ~ ^/(${alternation(lists.filter((list) => list !== ''))})?/?$ {
${pageHeaders}
        error_page 419 = @api;
        if ($args != "") {
            return 419;
        }
        try_files $uri $uri/index.html =404;
    }
`;
}

/** Writes every rule file into a staged build (`client/` and `nginx/`), and the Stock Not Found screen's CDN copy. */
export async function writeDeployRules(staging: string, options: DeployRulesOptions): Promise<void> {
  const client = join(staging, 'client');
  const nginx = join(staging, 'nginx');
  await mkdir(nginx, { recursive: true });
  await copyFile(join(client, STOCK_NOT_FOUND_PAGE), join(client, STOCK_NOT_FOUND_CDN_PAGE));
  for (const suffix of ['.br', '.gz']) await copyFile(join(client, STOCK_NOT_FOUND_PAGE + suffix), join(client, STOCK_NOT_FOUND_CDN_PAGE + suffix)).catch(() => undefined);
  await writeFile(join(client, '_headers'), headersFile(options));
  await writeFile(join(client, '_redirects'), redirectsFile());
  await writeFile(join(client, '_routes.json'), routesFile());
  await writeFile(join(client, '_worker.js'), workerFile(options));
  await writeFile(join(nginx, 'http.conf'), nginxHttpFile(options));
  await writeFile(join(nginx, 'server.conf'), nginxServerFile(options));
}
