/**
 * A small HTML page of its own (no script, no stylesheet file): what a link opened from a mail or another site lands on
 * when it must not act by itself (unsubscribe, confirm a digest address, sign out), answered never cached.
 */
import type { TypedResponse } from 'hono';
import { escapeHtml } from '../lib/domain/text/text';
import { SECURITY_HEADERS } from './security';

// The site's look in a few lines (both themes by the visitor's setting), so the page reads as ours without the site's stylesheet.
const STYLE =
  ':root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}body{margin:0;padding:2rem 1rem}main{max-width:32rem;margin:0 auto}h1{font-size:1.5rem;margin:0 0 1rem}button{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:1px solid currentColor;background:none;color:inherit;cursor:pointer}button:focus-visible,a:focus-visible{outline:2px solid #3b82f6;outline-offset:2px}form{margin:1rem 0}';

/** The page's HTML: `title` is escaped here, `body` is HTML the caller escaped. */
export function smallPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/**
 * The page as an answer, with the site's security headers, never cached, and no referrer for its links. Typed as a
 * body answer, as Hono's c.body is: a plain Response would erase the types of a route's JSON answers beside it.
 */
export function htmlAnswer<S extends 200 | 400 | 404 | 410 = 200>(html: string, status: S = 200 as S): Response & TypedResponse<string, S, 'body'> {
  const headers = { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
  return new Response(html, { status, headers }) as Response & TypedResponse<string, S, 'body'>;
}
