/**
 * A small HTML page of its own (no script, no stylesheet): what a link opened from a mail or another site lands on
 * when it must not act by itself (unsubscribe, confirm a digest address, sign out), answered never cached.
 */
import { SECURITY_HEADERS } from './security';

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page's HTML: `title` is escaped here, `body` is HTML the caller escaped. */
export function smallPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** The page as an answer, with the site's security headers, never cached, and no referrer for its links. */
export function htmlAnswer(html: string, status: 200 | 400 | 404 | 410 = 200): Response {
  return new Response(html, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
}
