/**
 * `npm test`: installs the Debian packages the tests need when they are missing (as root with apt-get; otherwise it
 * stops with the one command that installs them), then astro check, the layering rules (dependency-cruiser), unit and
 * integration tests (vitest) and e2e tests (Playwright). Every step runs with its own temp folder and a mark in its
 * environment; after each, the run fails, naming them, if a server or folder of the step is still there.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  chromiumPath,
  findTestProcesses,
  hasTool,
  installCommand,
  leftoverFolders,
  missingPackages,
  stopDistroServices,
  TEST_PACKAGES,
  type TestProcess,
} from './test-setup';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status ?? 1;
}

const missing = missingPackages(hasTool);
if (missing.length > 0) {
  const needs = TEST_PACKAGES.filter((item) => missing.includes(item.name)).map((item) => `${item.name} (${item.usedBy})`).join(', ');
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing the Debian packages the tests need: ${needs}...`);
    const code = run('/bin/sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${installCommand(missing)} -qq`]);
    // The packages start their distro services; the tests start their own on free ports.
    stopDistroServices(missing);
    const still = missingPackages(hasTool);
    if (code !== 0 || still.length > 0) {
      console.error(`Installing failed. Run: ${installCommand(still.length > 0 ? still : missing)}`);
      process.exit(1);
    }
  } else {
    const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
    console.error(`The tests need Debian packages that are not installed: ${needs}. Run:\n  ${sudo}${installCommand(missing)}`);
    if (missing.includes('chromium')) console.error(`(or set CHROMIUM_PATH to a Chromium binary; it is ${chromiumPath()} now)`);
    process.exit(1);
  }
}

/** What a step left running or in its temp folder, after a grace period for processes that are stopping. */
async function leftovers(marker: string, dir: string): Promise<{ processes: TestProcess[]; folders: string[] }> {
  let processes = findTestProcesses(marker, dir);
  for (let waited = 0; processes.length > 0 && waited < 10_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    processes = findTestProcesses(marker, dir);
  }
  return { processes, folders: processes.length > 0 || existsSync(dir) ? leftoverFolders(dir) : [] };
}

const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
// Types first (astro check covers pages, islands, scripts and tests), the layering rules, then vitest, then the browser.
const steps: [string, string[]][] = [
  [bin('astro'), ['check']],
  [bin('depcruise'), ['src', 'scripts', 'astro.config.mjs', '--config', '.dependency-cruiser.cjs']],
  [bin('vitest'), ['run']],
  [bin('playwright'), ['test']],
];
for (const [command, args] of steps) {
  const dir = mkdtempSync(join(tmpdir(), 'c-score-test-'));
  // As root, PostgreSQL runs as the postgres user, who must reach its folder inside this one.
  chmodSync(dir, 0o755);
  const marker = `C_SCORE_TEST_RUN=${basename(dir)}`;
  const code = run(command, args, { ...process.env, TMPDIR: dir, C_SCORE_TEST_RUN: basename(dir) });
  const left = await leftovers(marker, dir);
  if (left.processes.length > 0 || left.folders.length > 0) {
    const step = `${basename(command)} ${args.join(' ')}`;
    console.error(`\n${step} left behind what its tests started:`);
    for (const item of left.processes) console.error(`  process ${item.pid}: ${item.command}`);
    for (const folder of left.folders) console.error(`  folder ${folder}`);
    console.error('A fixture does not stop what it starts (register its afterAll when the test file is collected). Stopping and removing them now.');
    for (const item of left.processes) {
      try {
        process.kill(item.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) process.exit(code);
  if (left.processes.length > 0 || left.folders.length > 0) process.exit(1);
}
