/**
 * The first `npm start` prints no warning that is not a real problem: the static files are mounted before the first
 * build exists (serveStatic warned of a missing root), and node:sqlite's "experimental" notice read as an error.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { staticSite } from '../../src/server/static';

const ROOT = join(import.meta.dirname, '../..');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first npm start', () => {
  it('mounts the static site before its build exists without a warning, and serves the build once it is there', async () => {
    const work = await mkdtemp(join(tmpdir(), 'first-start-'));
    try {
      const printed = vi.spyOn(console, 'error');
      const site = staticSite({ distDir: join(work, 'dist') });
      expect((await site.request('/')).status).toBe(404);
      await mkdir(join(work, 'dist', 'client'), { recursive: true });
      await writeFile(join(work, 'dist', 'client', 'index.html'), '<!doctype html><title>Built</title>');
      const page = await site.request('/');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Built');
      expect(printed.mock.calls.flat().join('\n')).not.toMatch(/serveStatic|not found/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it("prints no SQLite ExperimentalWarning (npm start's own script, stopped by a setting it refuses)", async () => {
    const child = spawn('npm', ['run', '--silent', 'start'], { cwd: ROOT, env: { ...process.env, PORT: 'notaport' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toContain('PORT="notaport": expected a whole number');
    expect(output).not.toMatch(/ExperimentalWarning|experimental feature/);
  }, 60_000);
});
