import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCommand, leftoverFolders, missingPackages, TEST_PACKAGES, type TestTool } from '../../scripts/test-setup';

const machine = (present: TestTool[]) => (tool: TestTool) => present.includes(tool);

describe('the Debian packages npm test needs', () => {
  it('are Chromium, PostgreSQL, nginx, redis-server and systemd (for systemd-analyze)', () => {
    expect(TEST_PACKAGES.map((item) => item.name)).toEqual(['chromium', 'postgresql', 'nginx', 'redis-server', 'systemd']);
  });

  it('on a fresh machine are all missing, and one apt-get line installs them', () => {
    const missing = missingPackages(machine([]));
    expect(missing).toEqual(['chromium', 'postgresql', 'nginx', 'redis-server', 'systemd']);
    expect(installCommand(missing)).toBe('apt-get install -y chromium postgresql nginx redis-server systemd');
  });

  it('lists only the packages whose program the probe does not find', () => {
    expect(missingPackages(machine(['chromium', 'nginx', 'systemd-analyze']))).toEqual(['postgresql', 'redis-server']);
    expect(missingPackages(machine(['chromium', 'initdb', 'redis-server', 'systemd-analyze']))).toEqual(['nginx']);
  });

  it('are none when every program is there', () => {
    expect(missingPackages(machine(['chromium', 'initdb', 'nginx', 'redis-server', 'systemd-analyze']))).toEqual([]);
  });
});

describe("a step's leftover temp folders", () => {
  it('are what a test left, not the tool caches (tsx, Playwright) that may stay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'leftovers-'));
    try {
      for (const name of ['tsx-0', 'playwright-transform-cache-0', 'pg-Ab12Cd', 'deploy-XyZ']) await mkdir(join(dir, name));
      expect(leftoverFolders(dir).sort()).toEqual([join(dir, 'deploy-XyZ'), join(dir, 'pg-Ab12Cd')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
