/**
 * The security rules, each with a test, the server run with production semantics (origin checks explicitly on:
 * Better Auth would skip them under NODE_ENV=test, which vitest sets; rate limits on, as NODE_ENV=production turns
 * them on), on SQLite and PostgreSQL. Better Auth counts requests per client address in one store for the process,
 * so the rate-limit test sends from its own loopback address (127.0.0.x) per database.
 * Magic links that work once and expire: tests/integration/mail.test.ts.
 */

let nextAddress = 20;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountServer, cookiesOf, DATABASES, postFrom, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';

describe.each(DATABASES)('security on $name', ({ url }) => {
  let server: AccountServer;
  let databaseUrl: string | null;

  beforeAll(async () => {
    databaseUrl = await url();
    server = await startAccountServer(databaseUrl);
  }, 120_000);
  afterAll(() => server?.close());

  it('keeps the session in an HttpOnly, SameSite=Lax, Secure cookie behind https', async () => {
    await postJson(server, '/api/auth/sign-up/email', { email: 'cookie@example.com', password: 'correct horse battery', name: '' });
    // Sign-up never signs in: the session cookie comes from signing in.
    const response = await postJson(server, '/api/auth/sign-in/email', { email: 'cookie@example.com', password: 'correct horse battery' });
    const line = response.headers.getSetCookie().find((cookie) => cookie.includes('session_token='))!;
    expect(line).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(line).toMatch(/; HttpOnly/i);
    expect(line).toMatch(/; SameSite=Lax/i);
    expect(line).toMatch(/; Secure/i);
  });

  it('refuses state-changing requests from another origin: Better Auth\'s and ours', async () => {
    const cookie = await signUp(server, 'origin@example.com');
    const evil = { 'content-type': 'application/json', origin: 'https://evil.example', cookie };
    const signOut = await server.request('/api/auth/sign-out', { method: 'POST', headers: evil, body: '{}' });
    expect(signOut.status).toBe(403);
    const change = await server.request('/api/auth/change-password', { method: 'POST', headers: evil, body: JSON.stringify({ currentPassword: 'correct horse battery', newPassword: 'evil password!!' }) });
    expect(change.status).toBe(403);
    for (const [method, path] of [['POST', '/api/account/delete'], ['POST', '/api/account/password'], ['PUT', '/api/watchlist'], ['POST', '/api/watchlist/merge'], ['POST', '/api/account/checkout']] as const) {
      const response = await server.request(path, { method, headers: evil, body: '{}' });
      expect(response.status, `${method} ${path}`).toBe(403);
      const { origin: _, ...noOrigin } = evil;
      expect((await server.request(path, { method, headers: noOrigin, body: '{}' })).status, `${method} ${path} without Origin`).toBe(403);
    }
    const callback = await postJson(server, '/api/auth/sign-in/magic-link', { email: 'origin@example.com', callbackURL: 'https://evil.example/steal' });
    expect(callback.status).toBe(403);
    // Still signed in, account intact.
    expect(((await (await server.request('/api/auth/user', { headers: { cookie } })).json()) as { isAuthenticated: boolean }).isAuthenticated).toBe(true);
  });

  it('refuses passwords shorter than 10 characters', async () => {
    const response = await postJson(server, '/api/auth/sign-up/email', { email: 'short@example.com', password: '123456789', name: '' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/too short/i);
    expect((await postJson(server, '/api/auth/sign-up/email', { email: 'short@example.com', password: '1234567890', name: '' })).status).toBe(200);
  });

  it('answers a known and an unknown email alike on sign-in and on reset', async () => {
    await signUp(server, 'known@example.com');
    const known = await postJson(server, '/api/auth/sign-in/email', { email: 'known@example.com', password: 'wrong password here' });
    const unknown = await postJson(server, '/api/auth/sign-in/email', { email: 'unknown@example.com', password: 'wrong password here' });
    expect(unknown.status).toBe(known.status);
    expect(await unknown.json()).toEqual(await known.json());
    const resetKnown = await postJson(server, '/api/auth/request-password-reset', { email: 'known@example.com', redirectTo: '/login' });
    const resetUnknown = await postJson(server, '/api/auth/request-password-reset', { email: 'unknown@example.com', redirectTo: '/login' });
    expect(resetUnknown.status).toBe(resetKnown.status);
    expect(await resetUnknown.json()).toEqual(await resetKnown.json());
  });

  it('keeps another user\'s data out of reach', async () => {
    const alice = await signUp(server, 'alice@example.com');
    const bob = await signUp(server, 'bob@example.com');
    await postJson(server, '/api/watchlist', { tickers: ['AAPL', 'TSLA'] }, alice, 'PUT');
    expect(await (await server.request('/api/watchlist', { headers: { cookie: bob } })).json()).toEqual({ tickers: [] });
    const exported = await (await server.request('/api/account/export', { headers: { cookie: bob } })).text();
    expect(exported).not.toContain('alice@example.com');
    expect(exported).not.toContain('TSLA');
    // Bob's merge and delete touch only Bob.
    await postJson(server, '/api/watchlist/merge', { tickers: ['NVDA'] }, bob);
    expect((await postJson(server, '/api/account/delete', { password: 'correct horse battery' }, bob)).status).toBe(200);
    expect(((await (await server.request('/api/watchlist', { headers: { cookie: alice } })).json()) as { tickers: string[] }).tickers.sort()).toEqual(['AAPL', 'TSLA']);
    // A session cookie is not a user id: a made-up one is signed out.
    expect((await server.request('/api/watchlist', { headers: { cookie: '__Secure-better-auth.session_token=alice' } })).status).toBe(401);
  });

  it('answers bad input to every auth and account route with a clear 4xx, never a 500', async () => {
    const cookie = await signUp(server, 'fuzz@example.com');
    const bodies = ['not json', '[]', 'null', '{"email": 5, "password": []}', JSON.stringify({ email: 'x'.repeat(5000), password: 'y'.repeat(5000), tickers: 'AAPL', token: {} })];
    const routes = [
      ['POST', '/api/auth/sign-up/email'],
      ['POST', '/api/auth/sign-in/email'],
      ['POST', '/api/auth/sign-in/magic-link'],
      ['POST', '/api/auth/request-password-reset'],
      ['POST', '/api/auth/reset-password'],
      ['POST', '/api/account/password'],
      ['POST', '/api/account/delete'],
      ['POST', '/api/account/checkout'],
      ['PUT', '/api/watchlist'],
      ['POST', '/api/watchlist/merge'],
    ] as const;
    for (const [method, path] of routes) {
      for (const body of bodies) {
        const response = await server.request(path, { method, headers: { 'content-type': 'application/json', origin: SITE, cookie, 'x-forwarded-for': '10.0.0.9' }, body });
        expect(response.status, `${method} ${path} ${body.slice(0, 30)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${method} ${path} ${body.slice(0, 30)}`).toBeLessThan(500);
        const text = await response.text();
        if (response.status !== 429) expect(text, `${method} ${path}`).toMatch(/"(error|message)":"[^"]+/);
      }
    }
    for (const path of ['/api/auth/magic-link/verify?token=nonsense', '/api/auth/magic-link/verify', '/api/auth/reset-password/nonsense?callbackURL=/login', '/api/auth/login?returnTo=%E0%A4%A', '/api/account/export?x=%ZZ']) {
      const response = await server.request(path, { headers: { cookie } });
      expect(response.status, path).toBeLessThan(500);
    }
  }, 60_000);

  it('rate-limits sign-in (5 a minute), sign-up (5) and mail sending (3) per client address', async () => {
    // Its own server with the limits on (the others send many sign-ups from 127.0.0.1 within the minute).
    const limited = await startAccountServer(databaseUrl === null ? null : await url(), { rateLimit: true });
    const server = limited;
    const from = `127.0.0.${nextAddress++}`;
    const signIns: number[] = [];
    for (let i = 0; i < 6; i++) signIns.push(await postFrom(server, from, '/api/auth/sign-in/email', { email: 'known@example.com', password: 'wrong password here' }));
    expect(signIns).toEqual([401, 401, 401, 401, 401, 429]);
    const signUps: number[] = [];
    for (let i = 0; i < 6; i++) signUps.push(await postFrom(server, from, '/api/auth/sign-up/email', { email: `many${from}-${i}@example.com`, password: 'correct horse battery', name: '' }));
    expect(signUps).toEqual([200, 200, 200, 200, 200, 429]);
    const mails: number[] = [];
    for (let i = 0; i < 4; i++) mails.push(await postFrom(server, from, '/api/auth/sign-in/magic-link', { email: `link${i}@example.com`, callbackURL: '/' }));
    expect(mails).toEqual([200, 200, 200, 429]);
    // Another address is not held back by this one's count.
    expect(await postFrom(server, `127.0.0.${nextAddress++}`, '/api/auth/sign-in/email', { email: 'known@example.com', password: 'wrong password here' })).toBe(401);
    expect(server.sent.filter((mail) => mail.to.startsWith('link')).length).toBe(3);
    await limited.close();
  });
});

describe('cookies behind plain http (development)', () => {
  it('are HttpOnly and SameSite=Lax but not Secure, so a local browser keeps them', async () => {
    const server = await startAccountServer(null, { siteUrl: 'http://localhost:4321' });
    try {
      const ask = (path: string, body: unknown) =>
        server.request(path, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:4321' }, body: JSON.stringify(body) });
      await ask('/api/auth/sign-up/email', { email: 'dev@example.com', password: 'correct horse battery', name: '' });
      const response = await ask('/api/auth/sign-in/email', { email: 'dev@example.com', password: 'correct horse battery' });
      const line = response.headers.getSetCookie().find((cookie) => cookie.includes('session_token='))!;
      expect(line).toMatch(/^better-auth\.session_token=/);
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=Lax/i);
      expect(line).not.toMatch(/Secure/);
      expect(cookiesOf(response)).toContain('better-auth.session_token=');
    } finally {
      await server.close();
    }
  });
});
