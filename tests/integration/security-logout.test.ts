/**
 * Sign-out only by the site itself: `GET /api/auth/logout` from another site's link (or a mail, or a browser that
 * does not say where the request came from) signs nobody out and answers a page whose button posts; the site's own
 * form POST, and a same-origin navigation, sign out and return by the open-redirect rule; a POST from another origin
 * is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountServer, DATABASES, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';

describe('sign-out', () => {
  let server: AccountServer;
  beforeAll(async () => {
    server = await startAccountServer(await DATABASES[0].url());
  }, 120_000);
  afterAll(() => server?.close());

  const signedIn = async (cookie: string) => ((await (await server.request('/api/auth/user', { headers: { cookie } })).json()) as { isAuthenticated: boolean }).isAuthenticated;
  const clearsSession = (response: Response) => response.headers.getSetCookie().some((line) => /session_token=;|session_token=.*Max-Age=0/i.test(line));
  const logoutLink = `/api/auth/logout?returnTo=${encodeURIComponent(SITE)}`;

  it.each([
    ['a link on another site', { 'sec-fetch-site': 'cross-site' }],
    ['a link on a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    ['a link opened from a mail or typed in', { 'sec-fetch-site': 'none' }],
    ['a browser that sends no Sec-Fetch-Site', {}],
  ])('GET from %s does not sign out: a page asks, and its button posts', async (_, headers) => {
    const cookie = await signUp(server, `stay-${Math.random().toString(36).slice(2)}@example.com`);
    const response = await server.request(logoutLink, { headers: { cookie, ...headers } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(clearsSession(response)).toBe(false);
    const html = await response.text();
    expect(html).toContain('<h1>Sign out?</h1>');
    expect(html).toContain('<form method="post" action="/api/auth/logout"><input type="hidden" name="returnTo" value="/">');
    expect(await signedIn(cookie)).toBe(true);

    // The page's button: a form post from the site's own page signs out and returns to the site.
    const posted = await server.request('/api/auth/logout', {
      method: 'POST',
      headers: { cookie, origin: SITE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ returnTo: '/' }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/');
    expect(clearsSession(posted)).toBe(true);
    expect(await signedIn(cookie)).toBe(false);
  });

  it('the menu\'s form post (returnTo the site origin) signs out; the same post from another origin is refused', async () => {
    const cookie = await signUp(server, 'leaver@example.com');
    const body = new URLSearchParams({ returnTo: SITE }).toString();
    const evil = await server.request('/api/auth/logout', { method: 'POST', headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(evil.status).toBe(403);
    expect(await signedIn(cookie)).toBe(true);
    const own = await server.request('/api/auth/logout', { method: 'POST', headers: { cookie, origin: SITE, 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/');
    expect(await signedIn(cookie)).toBe(false);
  });

  it('a same-origin navigation to the spec\'s GET route still signs out and returns by the open-redirect rule', async () => {
    const cookie = await signUp(server, 'navigator@example.com');
    const out = await server.request('/api/auth/logout?returnTo=https%3A%2F%2Fevil.example%2Fx', { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(clearsSession(out)).toBe(true);
    expect(await signedIn(cookie)).toBe(false);
    // Signed out already: the redirect alone, whatever the request's origin.
    const again = await server.request(`/api/auth/logout?returnTo=${encodeURIComponent(`${SITE}/archives`)}`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect([again.status, again.headers.get('location')]).toEqual([302, '/archives']);
    expect((await postJson(server, '/api/auth/logout', {})).status).toBe(303);
  });
});
