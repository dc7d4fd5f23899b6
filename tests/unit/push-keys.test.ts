/** Web Push's keys: the environment's, a development pair made once and kept, and production without keys saying push is off. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { loadConfig } from '../../src/config';
import { DEV_KEY_FILE, pushSetup } from '../../src/server/push';

describe('VAPID keys', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vapid-'));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const none = { publicKey: null, privateKey: null, subject: null };

  it('production without keys: push is off, and the start-up line says what to set', () => {
    const setup = pushSetup({ vapid: none, production: true, siteUrl: 'https://signals.example', dataDir });
    expect(setup.keys).toBeNull();
    expect(setup.note).toBe('Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT to send push notifications (npx web-push generate-vapid-keys).');
  });

  it('development without keys: a pair is made once and kept in the data folder', async () => {
    const first = pushSetup({ vapid: none, production: false, siteUrl: 'http://localhost:4321', dataDir });
    expect(first.note).toContain('made now');
    const second = pushSetup({ vapid: none, production: false, siteUrl: 'http://localhost:4321', dataDir });
    expect(second.keys).toEqual(first.keys);
    expect(second.note).toContain('development keys');
    expect(JSON.parse(await readFile(join(dataDir, DEV_KEY_FILE), 'utf8')).publicKey).toBe(first.keys!.publicKey);
    expect(first.keys!.subject).toBe('mailto:push@localhost');
  });

  it('the environment\'s keys and subject win; a malformed key is a configuration error naming it', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@signals.example' });
    expect(pushSetup({ vapid: config.vapid, production: true, siteUrl: 'https://signals.example', dataDir })).toEqual({
      keys: { ...keys, subject: 'mailto:ops@signals.example' },
      note: 'Web Push is on (VAPID keys from the environment).',
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short' })).toThrow(/VAPID_PUBLIC_KEY="short": expected the 65-byte public key/);
    expect(() => loadConfig({ VAPID_SUBJECT: 'ops@signals.example' })).toThrow(/VAPID_SUBJECT=.*expected a mailto: or https: address/);
  });
});
