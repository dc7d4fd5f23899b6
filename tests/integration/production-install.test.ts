/**
 * A production install: `npm ci --omit=dev && npm run daily && npm start` needs no devDependency. The clean install
 * itself takes minutes, so this checks what it rests on: every package the runtime code imports (dependency-cruiser's
 * graph with the rules of .dependency-cruiser.cjs) and every program the runtime npm scripts run is in "dependencies"
 * and installed by the lockfile without dev, and the systemd units and the CI recipe run exactly those commands.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

const manifest = readJson<{ scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> }>('package.json');
const lock = readJson<{ packages: Record<string, { dev?: boolean }> }>('package-lock.json');
/** The npm scripts a production host runs. */
const RUNTIME_SCRIPTS = ['start', 'daily', 'admin', 'archive'];
/** Imported only when installed: without it the server logs JSON lines (src/server/operations.ts). */
const OPTIONAL_DEV_IMPORTS = ['pino-pretty'];

interface CruiseRule { name: string; from: { path: string; pathNot: string } }
const depcruiseConfig = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: CruiseRule[] };
const runtimeRule = depcruiseConfig.forbidden.find((rule) => rule.name === 'runtime-imports-dependencies');
/** A module of ours that runs on a production install, by the rule's own paths. */
const isRuntimeModule = (path: string) => new RegExp(runtimeRule!.from.path).test(path) && !new RegExp(runtimeRule!.from.pathNot).test(path);

interface Cruise {
  modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[]; ruleSetUsed: { forbidden: { name: string }[] } };
}
let cruise: Cruise;

beforeAll(async () => {
  // The same paths and config as `npm run check:layers`, astro.config.mjs included: `astro build` runs in the daily job.
  const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
  const args = [bin, 'src', 'scripts', 'astro.config.mjs', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  // It exits with the number of violations; the JSON on stdout says which.
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 }).catch((error: { stdout: string }) => error);
  cruise = JSON.parse(stdout) as Cruise;
}, 120_000);

/** `node_modules/@scope/name/...` → `@scope/name`. */
function packageOf(resolved: string): string | null {
  return /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(resolved)?.[1] ?? null;
}

/** The packages the runtime modules import for their values (type-only imports vanish at run time). */
function runtimeImports(): Set<string> {
  const names = new Set<string>();
  for (const module of cruise.modules.filter((m) => isRuntimeModule(m.source))) {
    for (const dependency of module.dependencies) {
      if (dependency.dependencyTypes.includes('type-only')) continue;
      const name = packageOf(dependency.resolved);
      if (name !== null && !name.startsWith('@types/')) names.add(name);
    }
  }
  return names;
}

/** The command an npm script runs, its leading `NAME=value` settings apart. */
function scriptCommand(name: string): { env: string[]; words: string[] } {
  const words = manifest.scripts[name]!.trim().split(/\s+/);
  const env = words.filter((word, i) => words.slice(0, i + 1).every((w) => /^[A-Z_]+=/.test(w)));
  return { env, words: words.slice(env.length) };
}

/** Which package a command of node_modules/.bin comes from, among the dependencies. */
function dependencyWithBin(command: string): string | undefined {
  return Object.keys(manifest.dependencies).find((name) => {
    const { bin } = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
    return typeof bin === 'string' ? name.split('/').pop() === command : bin !== undefined && command in bin;
  });
}

describe('what the server and the daily job import', () => {
  it('is found by dependency-cruiser, the runtime rules in force and none broken', () => {
    const rules = cruise.summary.ruleSetUsed.forbidden.map((rule) => rule.name);
    expect(rules).toEqual(expect.arrayContaining(['runtime-imports-dependencies', 'runtime-imports-declared-packages', 'runtime-not-into-dev-scripts']));
    expect(cruise.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    // The graph reaches into packages (a package's dist/ folder was once excluded, and the rule saw nothing).
    expect([...runtimeImports()]).toEqual(expect.arrayContaining(['astro', 'hono', 'tsx', '@resvg/resvg-js', '@tailwindcss/vite', '@astrojs/react', 'better-auth']));
  });

  it('is in "dependencies", and the lockfile installs it without dev', () => {
    const imports = [...runtimeImports()].sort();
    expect(imports.filter((name) => !(name in manifest.dependencies))).toEqual(OPTIONAL_DEV_IMPORTS);
    const devInLock = imports.filter((name) => !OPTIONAL_DEV_IMPORTS.includes(name) && lock.packages[`node_modules/${name}`]?.dev === true);
    expect(devInLock).toEqual([]);
  });
});

describe('the npm scripts a production host runs', () => {
  it.each(RUNTIME_SCRIPTS)('%s runs a program, a loader and a script that a production install has', (name) => {
    const { words } = scriptCommand(name);
    const [program, ...rest] = words;
    expect(dependencyWithBin(program!), `"${program}" of npm run ${name} comes from a dependency`).toBeDefined();
    expect(lock.packages[`node_modules/${dependencyWithBin(program!)}`]?.dev).not.toBe(true);
    const loaders = rest.flatMap((word, i) => (rest[i - 1] === '--import' ? [word] : []));
    for (const loader of loaders) expect(manifest.dependencies, `--import ${loader} of npm run ${name}`).toHaveProperty([loader]);
    const script = rest.find((word) => /\.(ts|mjs|js)$/.test(word));
    expect(script, `npm run ${name} names its script`).toBeDefined();
    expect(existsSync(join(ROOT, script!))).toBe(true);
    expect(isRuntimeModule(script!), `${script} is runtime code for dependency-cruiser's rules`).toBe(true);
  });
});

describe('the deploy recipes', () => {
  const unit = (name: string) => readFileSync(join(ROOT, 'deploy/systemd', name), 'utf8');
  const execStart = (text: string) => /^ExecStart=(.*)$/m.exec(text)?.[1];

  it.each([
    ['c-score-signals-api@.service', 'start'],
    ['c-score-signals-daily.service', 'daily'],
  ])('%s runs exactly `npm run %s`, from the install folder, with its settings', (file, script) => {
    const text = unit(file);
    const { env, words } = scriptCommand(script);
    expect(text).toMatch(/^WorkingDirectory=\/srv\/c-score-signals$/m);
    expect(execStart(text)).toBe(`/srv/c-score-signals/node_modules/.bin/${words.join(' ')}`);
    for (const setting of env) expect(text.split('\n')).toContain(`Environment=${setting}`);
  });

  it('the scheduled CI job installs with `npm ci --omit=dev` and runs `npm run daily`', () => {
    const workflow = readFileSync(join(ROOT, 'deploy/ci/daily-build.yml'), 'utf8');
    const commands = [...workflow.matchAll(/^\s*(?:- )?run: (npm .*)$/gm)].map((match) => match[1]!.trim());
    expect(commands).toEqual(['npm ci --omit=dev', 'npm run daily']);
  });
});
