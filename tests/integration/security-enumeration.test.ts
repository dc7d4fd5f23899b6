/**
 * No account enumeration: sign-up and the password reset answer alike for an address with an account and one
 * without (status, body, cookies, and the login page's outcome), in a time that does not depend on it, while the real
 * SMTP server is slow (mail leaves off the request path). The owner of a known address gets a note instead. The SMTP
 * catcher runs as its own process (tests/fixtures/smtp-catcher.ts), so its work never stalls the server measured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail';
import { type AccountServer, DATABASES, postJson, signUp, SITE, startAccountServer } from '../fixtures/account-server';
import { freePort, startScript, type Started, waitFor } from '../fixtures/deploy';

/** How long the catcher takes to accept each message: far above the bound below, as the old answers differed. */
const SMTP_DELAY_MS = 150;
/** Medians of the two kinds of request may differ by less than this. */
const BOUND_MS = 25;
const ROUNDS = 21;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** The shape of a JSON value: its keys (nested), with null kept apart from the other types. */
function shape(value: unknown): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shape(v)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  return typeof value;
}

interface Caught {
  subject: string;
  text: string;
}

describe.each(DATABASES)('no enumeration on $name', ({ url }) => {
  let catcher: Started;
  let readUrl: string;
  let server: AccountServer;
  let fresh = 0;
  const unknown = () => `new-${Date.now()}-${fresh++}@example.com`;
  const KNOWN = 'known@example.com';

  /** The messages the catcher holds for `to` whose subject is `subject`. */
  const mailTo = async (to: string, subject: string): Promise<Caught[]> => {
    const all = (await (await fetch(`${readUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as Caught[];
    return all.filter((mail) => mail.subject === subject);
  };
  /** Waits (up to 10 s) until `count` messages to `to` with `subject` arrived; the last. */
  const arrived = async (to: string, subject: string, count = 1): Promise<Caught> => {
    for (let i = 0; i < 100; i++) {
      const mails = await mailTo(to, subject);
      if (mails.length >= count) return mails.at(-1)!;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`No mail "${subject}" to ${to}`);
  };

  beforeAll(async () => {
    const [smtpPort, readPort] = [await freePort(), await freePort()];
    readUrl = `http://127.0.0.1:${readPort}`;
    catcher = startScript('tests/fixtures/smtp-catcher.ts', { SMTP_CATCHER_PORT: String(smtpPort), SMTP_CATCHER_READ_PORT: String(readPort), SMTP_CATCHER_DELAY_MS: String(SMTP_DELAY_MS) });
    await waitFor('the SMTP catcher', async () => (await fetch(`${readUrl}/messages`)).ok, catcher, 60_000);
    server = await startAccountServer(await url(), { mail: createMailer({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'C-Score Signals <noreply@signals.example>' }) });
    await signUp(server, KNOWN);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await catcher?.stop();
  });

  const timed = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await postJson(server, path, body);
    const text = await response.text();
    return { ms: performance.now() - started, status: response.status, body: JSON.parse(text) as unknown, cookies: response.headers.getSetCookie() };
  };
  const signUpAs = (email: string) => timed('/api/auth/sign-up/email', { email, password: 'another long password', name: '' });
  const resetFor = (email: string) => timed('/api/auth/request-password-reset', { email, redirectTo: '/api/forms/reset-password' });

  it('answers sign-up alike for a known and an unknown address, and mails the known address\'s owner a note', async () => {
    const address = unknown();
    const [known, other] = [await signUpAs(KNOWN), await signUpAs(address)];
    expect(known.status).toBe(200);
    expect(other.status).toBe(200);
    expect(shape(known.body)).toEqual(shape(other.body));
    expect(known.body).toMatchObject({ token: null, user: { email: KNOWN, emailVerified: false } });
    expect(known.cookies).toEqual([]);
    expect(other.cookies).toEqual([]);
    const note = await arrived(KNOWN, 'Someone tried to sign up to C-Score Signals with your address');
    expect(note.text).toContain(`${SITE}/login`);
    expect(note.text).not.toContain('another long password');
    await arrived(address, 'Confirm your email for C-Score Signals');
    // The known account is untouched: its own password still signs in, the one typed at sign-up does not.
    expect((await postJson(server, '/api/auth/sign-in/email', { email: KNOWN, password: 'correct horse battery' })).status).toBe(200);
    expect((await postJson(server, '/api/auth/sign-in/email', { email: KNOWN, password: 'another long password' })).status).toBe(401);
  });

  it('sends the login page\'s sign-up form to the same outcome for both', async () => {
    const form = (email: string) =>
      server.request('/api/forms/sign-up', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE },
        body: new URLSearchParams({ email, password: 'another long password', returnTo: '/learn' }),
      });
    const [known, other] = [await form(KNOWN), await form(unknown())];
    expect(known.headers.get('location')).toBe('/login?returnTo=%2Flearn#sign-up-sent');
    expect(other.headers.get('location')).toBe(known.headers.get('location'));
    expect(known.headers.getSetCookie()).toEqual(other.headers.getSetCookie());
  });

  it('answers the password reset alike for both', async () => {
    const [known, other] = [await resetFor(KNOWN), await resetFor(unknown())];
    expect([known.status, other.status]).toEqual([200, 200]);
    expect(known.body).toEqual(other.body);
    await arrived(KNOWN, 'Reset your C-Score Signals password');
  });

  it(`takes the same time for both while mail takes ${SMTP_DELAY_MS} ms: medians of ${ROUNDS} sign-ups and resets each within ${BOUND_MS} ms`, async () => {
    const times = { signUpKnown: [] as number[], signUpNew: [] as number[], resetKnown: [] as number[], resetNew: [] as number[] };
    // Interleaved, so load on the machine weighs on both kinds alike.
    for (let i = 0; i < ROUNDS; i++) {
      times.signUpKnown.push((await signUpAs(KNOWN)).ms);
      times.signUpNew.push((await signUpAs(unknown())).ms);
      times.resetNew.push((await resetFor(unknown())).ms);
      times.resetKnown.push((await resetFor(KNOWN)).ms);
    }
    const medians = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, Math.round(median(values))]));
    expect(Math.abs(medians.signUpKnown! - medians.signUpNew!), JSON.stringify(medians)).toBeLessThan(BOUND_MS);
    expect(Math.abs(medians.resetKnown! - medians.resetNew!), JSON.stringify(medians)).toBeLessThan(BOUND_MS);
    // Nothing waited for the slow mail server.
    expect(medians.resetKnown!, JSON.stringify(medians)).toBeLessThan(SMTP_DELAY_MS);
  }, 120_000);
});
