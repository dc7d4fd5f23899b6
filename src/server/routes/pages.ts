import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { FILTERABLE_LIST_PATHS, filterListHtml, hasServerFilter } from '../../lib/domain/signals/list-filter';
import { signalDirection } from '../../lib/domain/signals/signal';
import { parseTableState } from '../../lib/domain/signals/table';
import { proScreenerPage, renderScreenerPage, SCREEN_ROWS_PATH, splitScreenerPage, type ScreenerPage } from '../../lib/domain/signals/screener-page';
import { parseScreen } from '../../lib/domain/signals/screener';
import { seesEverything } from '../../lib/domain/accounts/entitlements';
import type { SiteIndex } from '../../storage/site-index';
import { proScreenRows, type ScreenerViewers } from './screener-rows';
import { isTicker } from '../../lib/domain/report/ticker';
import { readBuildInfo, type SiteIndexLoader } from '../../storage/site-index';
import { pagePolicy, SECURITY_HEADERS } from '../security';
import { OPERATOR_PAGES, OPERATORS_ONLY_PAGE } from '../../lib/domain/site/routes';
import type { SessionReader } from '../auth/session';
import { asciiUpper } from '../../lib/domain/text/text';

/** 301 from /signal/aapl to /signal/AAPL (spec section 5: the route's ticker is upper-cased); other paths pass. */
export function signalPageRedirect(): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const match = /^\/signal\/([^/]+)(\/?)$/.exec(path);
    const raw = match?.[1];
    if (raw === undefined) return next();
    let ticker: string;
    try {
      ticker = decodeURIComponent(raw);
    } catch {
      return next();
    }
    const upper = asciiUpper(ticker);
    // /signal/index.html is the Stock Not Found page's file, not a ticker to upper-case.
    if (upper === ticker || !isTicker(upper) || /\.(html?|json)$/i.test(ticker)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/signal/${upper}${match?.[2] ?? ''}${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}

/** 301 from /archives/1 to /archives: the first page of the archives has one address (its canonical link's). */
export function archiveFirstPageRedirect(): MiddlewareHandler {
  return async (c, next) => {
    if (!/^\/archives\/1\/?$/.test(c.req.path)) return next();
    const query = c.req.url.indexOf('?');
    return c.redirect(`/archives${query === -1 ? '' : c.req.url.slice(query)}`, 301);
  };
}

/**
 * A list address with a filter query (`/all-signals?direction=bearish`) answered with the filtered table already in
 * the HTML, so the filter form works without JavaScript (lib/domain/signals/list-filter.ts); other requests pass.
 */
export function filteredListPages(distDir: string, site: SiteIndexLoader, policy = SECURITY_HEADERS['content-security-policy']!): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path.replace(/(.)\/+$/, '$1');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const query = c.req.url.indexOf('?');
    // The landing page holds the top of the table only: a filter asked of it is All Signals' (older links).
    if (path === '/' && query !== -1 && hasServerFilter(parseTableState(c.req.url.slice(query + 1)))) return c.redirect(`/all-signals${c.req.url.slice(query)}`, 302);
    if (!FILTERABLE_LIST_PATHS.has(path)) return next();
    const state = parseTableState(query === -1 ? '' : c.req.url.slice(query + 1));
    if (!hasServerFilter(state)) return next();
    const index = await site.current().catch(() => null);
    const html = index === null ? null : await readFile(join(distDir, 'client', path, 'index.html'), 'utf8').catch(() => null);
    if (index === null || html === null) return next();
    const filtered = filterListHtml(html, state, (ticker) => {
      const record = index.records.get(ticker);
      return record && { ticker, company: record.companyName, direction: signalDirection(record.cScore), sector: record.sector ?? '' };
    });
    // The page's inline scripts are allowed by the build's hashes, as on the static page (static.ts PagePolicy).
    const scriptHashes = (await readBuildInfo(distDir))?.scriptHashes ?? [];
    return c.html(filtered, 200, {
      'Cache-Control': 'public, max-age=0, must-revalidate',
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': pagePolicy(policy, scriptHashes),
    });
  };
}

/**
 * /upload and /admin only for operators: signed out, a 302 to /login that returns here; signed in
 * without the role, the pre-rendered "Operators only" page with status 403. Never the form to anyone else.
 */
export function operatorPages(session: SessionReader, distDir: string): MiddlewareHandler {
  const refusalPage = join(distDir, 'client', OPERATORS_ONLY_PAGE);
  return async (c, next) => {
    const user = await session.lookup(c.req.header('cookie'));
    const noStore = { 'Cache-Control': 'private, no-store' };
    if (user === null) {
      const page = OPERATOR_PAGES.find((p) => c.req.path === p || c.req.path.startsWith(`${p}/`)) ?? '/';
      return c.redirect(`/login?returnTo=${encodeURIComponent(page)}`, 302);
    }
    if (!user.isOperator) {
      const html = await readFile(refusalPage, 'utf8').catch(() => 'Only operators (ADMIN_EMAILS) may open this page.');
      return c.html(html, 403, noStore);
    }
    await next();
    c.res.headers.set('Cache-Control', 'private, no-store');
  };
}

/** How many rendered screener answers are kept: a shared screen is asked again and again. */
const SCREENER_CACHE_ENTRIES = 256;

/** One rendered screener answer: its HTML, gzipped once when first asked so, and its entity tag. */
interface ScreenerAnswer {
  html: string;
  gzip?: Uint8Array<ArrayBuffer>;
  etag: string;
  /** The query asks for watched stocks only. */
  watched: boolean;
}


/**
 * /screener with a query answered with the screen's result already in the HTML (the form filled, the result's rows in
 * order), so a screen works without JavaScript and a phone gets only the rows it shows
 * (lib/domain/signals/screener-page.ts). Renders are kept per build; the answer is the same for everyone, so shared
 * caches may keep it and revalidate it by its entity tag.
 */
export function screenerPages(distDir: string, site: SiteIndexLoader, policy = SECURITY_HEADERS['content-security-policy']!, viewers?: ScreenerViewers): MiddlewareHandler {
  let build: { index: SiteIndex; page: ScreenerPage | null; proPage?: ScreenerPage; csp: string; tag: string; answers: Map<string, ScreenerAnswer> } | null = null;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const start = c.req.url.indexOf('?');
    const query = start === -1 ? '' : c.req.url.slice(start + 1);
    if (query === '') return next();
    const index = await site.current().catch(() => null);
    if (index === null) return next();
    if (build?.index !== index) {
      const html = await readFile(join(distDir, 'client', 'screener', 'index.html'), 'utf8').catch(() => null);
      const rowsJson = await readFile(join(distDir, 'client', SCREEN_ROWS_PATH), 'utf8').catch(() => null);
      // The page's inline scripts are allowed by the build's hashes, as on the static page (static.ts PagePolicy).
      const scriptHashes = (await readBuildInfo(distDir))?.scriptHashes ?? [];
      const tag = createHash('sha256').update(`${index.builtAt}\n${html ?? ''}`).digest('base64url').slice(0, 16);
      build = { index, page: html === null || rowsJson === null ? null : splitScreenerPage(html, rowsJson), csp: pagePolicy(policy, scriptHashes), tag, answers: new Map() };
    }
    if (build.page === null) return next();
    let answer = build.answers.get(query);
    if (answer === undefined) {
      const html = renderScreenerPage(build.page, query);
      answer = { html, etag: `"${build.tag}-${createHash('sha256').update(query).digest('base64url').slice(0, 16)}"`, watched: parseScreen(query).screen.flags.watched === true };
      if (build.answers.size >= SCREENER_CACHE_ENTRIES) build.answers.delete(build.answers.keys().next().value!);
      build.answers.set(query, answer);
    }
    // A Pro session with the paywall, or a screen of the watchlist, gets its own answer; the public one says it varies.
    const personal = viewers !== undefined && (viewers.paywall || answer.watched);
    const cookie = c.req.header('cookie');
    const viewer = personal && cookie ? await viewers.lookup(cookie) : null;
    if (viewer !== null) {
      const pro = viewers!.paywall && seesEverything({ paywall: true, isPro: viewer.isPro });
      const watched = answer.watched ? await viewer.watchlist() : null;
      if (pro || watched !== null) {
        let page = build.page;
        if (pro) {
          const rows = proScreenRows(build.index);
          page = build.proPage ??= proScreenerPage(build.page, rows.rows, rows.html);
        }
        return c.body(renderScreenerPage(page, query, watched), 200, {
          'Cache-Control': 'private, no-store',
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': build.csp,
          Vary: 'Cookie',
        });
      }
    }
    const headers: Record<string, string> = {
      'Cache-Control': 'public, max-age=0, must-revalidate',
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': build.csp,
      ETag: answer.etag,
      Vary: personal ? 'Accept-Encoding, Cookie' : 'Accept-Encoding',
    };
    if (c.req.header('if-none-match')?.split(/\s*,\s*/).includes(answer.etag)) return c.body(null, 304, headers);
    if (/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      answer.gzip ??= new Uint8Array(gzipSync(answer.html));
      return c.body(answer.gzip, 200, { ...headers, 'Content-Encoding': 'gzip' });
    }
    return c.body(answer.html, 200, headers);
  };
}
