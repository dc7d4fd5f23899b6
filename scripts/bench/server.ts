/** The site under test: the real `npm start` entry (tsx scripts/start.ts) on a bench build, on 127.0.0.1. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const HOST = '127.0.0.1';
const FIRST_PORT = 4800;
const LAST_PORT = 4899;

// Servers still running: stopped when the bench exits, whichever way it exits.
const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running) signalGroup(pid, 'SIGTERM');
});

/** A running server started by the bench. */
export interface BenchServer {
  origin: string;
  stop: () => Promise<void>;
  /** The accounts database it serves (SQLite). */
  databaseFile: string;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/** A range of ports to serve on. */
export interface PortRange {
  first: number;
  last: number;
}

/** The first free port of the range (the bench's is 4800-4899). */
async function freePort({ first, last }: PortRange): Promise<number> {
  for (let port = first; port <= last; port++) if (await portIsFree(port)) return port;
  throw new Error(`No free port between ${first} and ${last}: stop what listens there and run the bench again.`);
}

/**
 * Starts `tsx scripts/start.ts` with DIST_DIR = distDir (and `env` on top) and waits until /api/health answers 200.
 * `ports` keeps another tool's server (the screenshots') off the bench's range, so both can run at once.
 */
export async function startServer(root: string, distDir: string, env: Record<string, string> = {}, ports: PortRange = { first: FIRST_PORT, last: LAST_PORT }): Promise<BenchServer> {
  const port = await freePort(ports);
  const origin = `http://${HOST}:${port}`;
  const databaseFile = env.DATABASE_FILE ?? join(distDir, '..', 'bench-app.db');
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/start.ts'], {
    cwd: root,
    // The accounts database beside the bench build, not the checkout's data/app.db.
    env: { ...process.env, PORT: String(port), HOST, DIST_DIR: distDir, DATABASE_URL: '', ...env, DATABASE_FILE: databaseFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it also stops the node process tsx starts.
    detached: true,
  });
  if (child.pid !== undefined) running.add(child.pid);
  child.once('exit', () => running.delete(child.pid!));
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const stop = () => stopProcess(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (code ${child.exitCode}) before answering /api/health:\n${output.trim()}`);
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.status === 200) return { origin, stop, databaseFile };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`The server on ${origin} did not answer /api/health with 200 within 60 s:\n${output.trim()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup(pid, 'SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    signalGroup(pid, 'SIGTERM');
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
