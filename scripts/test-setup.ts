/**
 * What `npm test` (scripts/test.ts) needs of the machine and what it checks after each step: the Debian packages its
 * tests start or call, which of them are missing, and the processes and temp folders a step left behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Each Debian package the tests need, the program that shows it is installed, and which tests use it. */
export const TEST_PACKAGES = [
  { name: 'chromium', tool: 'chromium', usedBy: 'the e2e browser' },
  { name: 'postgresql', tool: 'initdb', usedBy: 'the account tests on PostgreSQL' },
  { name: 'nginx', tool: 'nginx', usedBy: 'the deploy test' },
  { name: 'redis-server', tool: 'redis-server', usedBy: 'the shared-state, limits, AI and deploy tests' },
  { name: 'systemd', tool: 'systemd-analyze', usedBy: 'the systemd units check' },
] as const;

export type TestTool = (typeof TEST_PACKAGES)[number]['tool'];

/** The distro services a package starts when installed, which the tests do not use (they start their own). */
const SERVICES: Record<string, string> = { nginx: 'nginx', 'redis-server': 'redis-server', postgresql: 'postgresql' };

/** The packages whose program the probe does not find, in TEST_PACKAGES order. */
export function missingPackages(has: (tool: TestTool) => boolean): string[] {
  return TEST_PACKAGES.filter((item) => !has(item.tool)).map((item) => item.name);
}

/** The one command that installs them all. */
export function installCommand(packages: readonly string[]): string {
  return `apt-get install -y ${packages.join(' ')}`;
}

/** The Chromium the e2e tests drive (playwright.config.ts). */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** The newest installed PostgreSQL server's bin folder, or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

/** Debian puts nginx in /usr/sbin, which a non-root PATH may lack. */
export function nginxPath(): string {
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

function onPath(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
}

/** The probe of this machine: is the program the tests run there? */
export function hasTool(tool: TestTool): boolean {
  switch (tool) {
    case 'chromium':
      return existsSync(chromiumPath());
    case 'initdb':
      return postgresBin() !== null;
    case 'nginx':
      return nginxPath() !== 'nginx' || onPath('nginx');
    default:
      return onPath(tool);
  }
}

/** Stops the distro services the just-installed packages started (systemd, or the init script without it). */
export function stopDistroServices(installed: readonly string[]): void {
  const quiet = { stdio: 'ignore' } as const;
  const systemctl = spawnSync('systemctl', ['--version'], quiet).status === 0;
  for (const name of installed) {
    const service = SERVICES[name];
    if (service === undefined) continue;
    if (systemctl && spawnSync('systemctl', ['is-active', '--quiet', service], quiet).status === 0) spawnSync('systemctl', ['stop', service], quiet);
    else if (existsSync(`/etc/init.d/${service}`)) spawnSync('service', [service, 'stop'], quiet);
  }
}

/** A process a test step started: its pid and command line. */
export interface TestProcess {
  pid: number;
  command: string;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The running processes of a test run: those whose environment holds `marker` (NAME=value, which every child of the
 * run inherits), whose command line names `dir` (postgres -D, nginx -p, chromium's profile) or whose working folder is
 * in it (redis-server --dir, postgres' children), and their descendants (nginx's workers). PostgreSQL and Redis
 * rewrite their process title over their environment, hence the other two marks. Linux /proc only.
 */
export function findTestProcesses(marker: string, dir: string, except: readonly number[] = [process.pid]): TestProcess[] {
  const all = new Map<number, { parent: number; command: string; ours: boolean }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = read(`/proc/${pid}/stat`);
    if (stat === null) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read from the last ')'.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue;
    const command = (read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' ').trim();
    const environment = (read(`/proc/${pid}/environ`) ?? '').split('\0');
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // Another user's process: not readable, and not ours unless its command line says so.
    }
    const inDir = (path: string) => path === dir || path.startsWith(`${dir}/`);
    const ours = environment.includes(marker) || command.includes(`${dir}/`) || inDir(cwd.replace(/ \(deleted\)$/, ''));
    all.set(pid, { parent: Number(parent), command, ours });
  }
  const found = new Set([...all].filter(([, item]) => item.ours).map(([pid]) => pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, item] of all) {
      if (!found.has(pid) && found.has(item.parent)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found].filter((pid) => !except.includes(pid)).map((pid) => ({ pid, command: all.get(pid)!.command || `(pid ${pid})` }));
}

/** Tool caches that may stay in the run's temp folder (they hold no test's data); removed with it at the end. */
const CACHES = /^(tsx-\d+|node-compile-cache|playwright-transform-cache(-\d+)?|\.org\.chromium\..*|\.com\.google\.Chrome\..*)$/;

/** What a step left in the run's temp folder, beyond tool caches. */
export function leftoverFolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !CACHES.test(name))
    .map((name) => join(dir, name));
}
