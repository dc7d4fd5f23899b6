/**
 * Web Push's network side: the VAPID keys (the environment's, or in development a pair made once and kept in the
 * data folder), the check of a subscription's endpoint (in production https only, and the host's every address
 * public), and the sender the daily job posts notifications with: web-push encrypts (aes128gcm) and signs (VAPID),
 * and the request goes through a lookup that checks each address again at connect time, so a name that resolves
 * elsewhere later still cannot reach the inside of the network.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { type Config, PROJECT_ROOT } from '../config';
import webpush from 'web-push';
import { endpointUrlProblem, isForbiddenAddress, type PushMessage } from '../lib/domain/alerts/push';

/** The application server's keys (base64url) and the contact the push services see. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Push is on with these keys, or off with the reason (logged at start-up). */
export type PushSetup = { keys: VapidKeys; note: string } | { keys: null; note: string };

/** Web Push's settings from the Config: the development key pair lives beside the accounts database. */
export function pushSettings(config: Config) {
  const dataDir = config.database.file === ':memory:' ? resolve(PROJECT_ROOT, 'data') : dirname(config.database.file);
  return { vapid: config.vapid, production: config.production, siteUrl: config.siteUrl, dataDir };
}

/** The development key pair's file in the data folder. */
export const DEV_KEY_FILE = 'vapid-keys.json';

/**
 * The VAPID keys: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set; without them, in production push is off; in
 * development a pair is made once and kept in `dataDir`. The subject defaults to the site's https address or a
 * mailto: of MAIL_FROM's host.
 */
export function pushSetup(settings: { vapid: { publicKey: string | null; privateKey: string | null; subject: string | null }; production: boolean; siteUrl: string; dataDir: string }): PushSetup {
  const subject = settings.vapid.subject ?? (settings.siteUrl.startsWith('https://') ? new URL(settings.siteUrl).origin : `mailto:push@${new URL(settings.siteUrl).hostname}`);
  const { publicKey, privateKey } = settings.vapid;
  if (publicKey !== null && privateKey !== null) return { keys: { publicKey, privateKey, subject }, note: 'Web Push is on (VAPID keys from the environment).' };
  if (publicKey !== null || privateKey !== null) return { keys: null, note: 'Web Push is off: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together (npx web-push generate-vapid-keys).' };
  if (settings.production) return { keys: null, note: 'Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT to send push notifications (npx web-push generate-vapid-keys).' };
  const file = join(settings.dataDir, DEV_KEY_FILE);
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { keys: { publicKey: stored.publicKey, privateKey: stored.privateKey, subject }, note: `Web Push is on with the development keys in ${file}.` };
    }
  } catch {
    // No file yet: made below.
  }
  const made = webpush.generateVAPIDKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  return { keys: { ...made, subject }, note: `Web Push is on with a development key pair made now and kept in ${file}.` };
}

/** Why this endpoint may not be stored, or null: the URL's rule, then (production) every address of its host. */
export async function endpointProblem(endpoint: string, production: boolean): Promise<string | null> {
  const problem = endpointUrlProblem(endpoint, production);
  if (problem !== null || !production) return problem;
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true, verbatim: true });
  } catch {
    return `endpoint's host ${host} does not resolve.`;
  }
  if (addresses.length === 0 || addresses.some((entry) => isForbiddenAddress(entry.address))) {
    return `endpoint's host ${host} is a loopback, private or link-local address: only public push services are allowed.`;
  }
  return null;
}

/** The push service's answer: its status, and how long it asked us to wait (Retry-After). */
export interface PushAnswer {
  status: number;
  retryAfterMs: number | null;
}

/** A push the sender would not post: retrying cannot help (a refused address). */
export class PushRefused extends Error {
  override name = 'PushRefused';
  readonly permanent = true;
}

/** A DNS lookup that fails for any address our server must not post to (connect time, so rebinding cannot slip by). */
const guardedLookup: typeof dnsLookup = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...(options as object), all: true }, (error, addresses) => {
    if (error) return callback(error);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((entry) => isForbiddenAddress(entry.address));
    if (bad !== undefined || list.length === 0) return callback(new PushRefused(`The push endpoint's host ${hostname} resolves to ${bad?.address ?? 'nothing'}, which is not a public address.`));
    if ((options as { all?: boolean }).all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}) as typeof dnsLookup;

/** A VAPID token's lifetime (push services accept up to 24 hours) and how long the sender reuses one. */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;
const VAPID_REUSE_MS = 60 * 60 * 1000;

/** A subscription as the sender needs it. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Posts one notification: encrypted for the subscription's keys (aes128gcm), signed with the VAPID keys, through
 * kept-alive connections. In production only https and public addresses; a literal address is checked first.
 */
export function createPushSender(settings: { keys: VapidKeys; production: boolean; timeoutMs?: number; ttlSeconds?: number }) {
  const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };
  const timeout = settings.timeoutMs ?? 10_000;
  // One signed VAPID token per push service for an hour (it is valid for 12), not one per message.
  const tokens = new Map<string, { header: string; until: number }>();
  const vapidHeader = (audience: string): string => {
    const now = Date.now();
    const cached = tokens.get(audience);
    if (cached !== undefined && cached.until > now) return cached.header;
    const expiration = Math.floor(now / 1000) + VAPID_TOKEN_SECONDS;
    const header = webpush.getVapidHeaders(audience, settings.keys.subject, settings.keys.publicKey, settings.keys.privateKey, 'aes128gcm', expiration).Authorization;
    tokens.set(audience, { header, until: now + VAPID_REUSE_MS });
    return header;
  };
  const send = (target: PushTarget, message: PushMessage): Promise<PushAnswer> => {
    const problem = endpointUrlProblem(target.endpoint, settings.production);
    if (problem !== null) return Promise.reject(new PushRefused(problem));
    const url = new URL(target.endpoint);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (settings.production && /^[\d.]+$|:/.test(literal) && isForbiddenAddress(literal)) return Promise.reject(new PushRefused(`The push endpoint ${url.host} is not a public address.`));
    const details = webpush.generateRequestDetails(target, JSON.stringify(message), {
      TTL: settings.ttlSeconds ?? 24 * 60 * 60,
      contentEncoding: 'aes128gcm',
      headers: { Authorization: vapidHeader(url.origin) },
    });
    return new Promise<PushAnswer>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: details.headers as Record<string, string | number>,
          agent: agents[url.protocol as 'http:' | 'https:'],
          timeout,
          ...(settings.production ? { lookup: guardedLookup } : {}),
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const retryAfter = Number(response.headers['retry-after']);
            resolve({ status: response.statusCode ?? 0, retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : null });
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`The push service did not answer within ${timeout} ms.`)));
      request.on('error', reject);
      request.end(details.body ?? undefined);
    });
  };
  return { send, close: () => Object.values(agents).forEach((agent) => agent.destroy()) };
}
