/** `npm test`: checks for the system Chromium, then astro check, the layering rules (dependency-cruiser), unit and integration tests (vitest) and e2e tests (Playwright). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

if (!existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Chromium is missing at ${chromium}: installing Debian's chromium package...`);
    const code = run('/bin/sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium']);
    if (code !== 0 || !existsSync(chromium)) {
      console.error('Installing chromium failed. Run: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)');
      process.exit(1);
    }
  } else {
    console.error(`The e2e tests need Chromium at ${chromium}. Run: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)`);
    process.exit(1);
  }
}

const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
// Types first (astro check covers pages, islands, scripts and tests), the layering rules, then vitest, then the browser.
const steps: [string, string[]][] = [
  [bin('astro'), ['check']],
  [bin('depcruise'), ['src', 'scripts', '--config', '.dependency-cruiser.cjs']],
  [bin('vitest'), ['run']],
  [bin('playwright'), ['test']],
];
for (const [command, args] of steps) {
  const code = run(command, args);
  if (code !== 0) process.exit(code);
}
