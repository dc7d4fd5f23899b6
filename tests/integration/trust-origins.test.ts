/**
 * Sign-up wherever a development server is reached: outside production the origin the server listens on (HOST,
 * PORT) and localhost/127.0.0.1 of that port are trusted besides SITE_URL's, read from the real config
 * (accountSettings(loadConfig(env))). In production a form from any other origin is refused with the outcome that
 * names SITE_URL, a log line for the operator naming the origin and SITE_URL, and the typed email kept.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { OUTCOMES } from '../../src/lib/domain/accounts/account-forms';
import { accountSettings } from '../../src/server/accounts';
import { startAccountServer } from '../fixtures/account-server';

/** A port nothing listens on now (the server under test then listens on it: PORT other than the default). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (running.length > 0) await running.pop()!();
});

/** The real app on HOST=127.0.0.1 and `port`, its account origins taken from the config of `env`. */
async function startFromEnv(env: Record<string, string>, port: number) {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), ...env });
  const settings = accountSettings(config);
  const server = await startAccountServer(null, { siteUrl: settings.siteUrl, trustedOrigins: settings.trustedOrigins }, { port: config.port, host: config.host });
  running.push(() => server.close());
  return { settings, config };
}

/** Posts /login's sign-up form as a browser at `origin` does; the redirect's location. */
async function signUpFrom(port: number, origin: string, email: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/forms/sign-up`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ email, password: 'a long enough password', returnTo: '/account' }),
  });
  await response.body?.cancel();
  expect(response.status).toBe(303);
  return response.headers.get('location') ?? '';
}

describe('outside production, SITE_URL unset, PORT and HOST not the default', () => {
  it('trusts the origin the server listens on and localhost/127.0.0.1 of that port, and accepts sign-up from each', async () => {
    const port = await freePort();
    const { settings, config } = await startFromEnv({ NODE_ENV: 'development' }, port);
    // Unset, SITE_URL follows PORT.
    expect(config.siteUrl).toBe(`http://localhost:${port}`);
    expect(settings.trustedOrigins).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    expect(await signUpFrom(port, `http://127.0.0.1:${port}`, 'own@example.com')).toBe('/login?returnTo=%2Faccount#sign-up-sent');
    expect(await signUpFrom(port, `http://localhost:${port}`, 'local@example.com')).toBe('/login?returnTo=%2Faccount#sign-up-sent');
    // Another port or site is still refused.
    expect(await signUpFrom(port, `http://localhost:${port + 1}`, 'other@example.com')).toBe('/login?returnTo=%2Faccount&email=other%40example.com#sign-up-refused');
  });

  it('HOST 0.0.0.0 (every interface) trusts localhost and 127.0.0.1 of the port', () => {
    const settings = accountSettings(loadConfig({ HOST: '0.0.0.0', PORT: '8080', NODE_ENV: 'development' }));
    expect(settings.trustedOrigins).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080']);
  });
});

describe('in production', () => {
  const production = {
    NODE_ENV: 'production',
    SITE_URL: 'https://signals.example',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    BETTER_AUTH_SECRET: 'production-secret-of-at-least-thirty-two-chars',
  };

  it('refuses a sign-up from an origin other than SITE_URL, says SITE_URL is the fix, logs the origin and keeps the email', async () => {
    const port = await freePort();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { settings } = await startFromEnv(production, port);
    expect(settings.trustedOrigins).toEqual([]);
    const origin = `http://127.0.0.1:${port}`;
    expect(await signUpFrom(port, origin, 'reader@example.com')).toBe('/login?returnTo=%2Faccount&email=reader%40example.com#sign-up-refused');
    const refused = OUTCOMES['sign-up'].refused.text;
    expect(refused).toContain('SITE_URL');
    expect(refused).toContain('Reloading will not help');
    const lines = warn.mock.calls.map((call) => String(call[0]));
    expect(lines.some((line) => line.includes(`from ${origin}`) && line.includes('SITE_URL=https://signals.example'))).toBe(true);
  });
});
