/** Child processes for the bench: run a command to completion while sampling the RSS of its whole process tree. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PAGE_BYTES = 4096;
const GNU_TIME = '/usr/bin/time';

/** What a finished command left behind. */
export interface RunResult {
  code: number | null;
  wallSeconds: number;
  stdout: string;
  stderr: string;
  /** Largest sum of RSS over the process and all its descendants, sampled from /proc every 100 ms (bytes). */
  peakTreeRssBytes: number | null;
  /** GNU time's "Maximum resident set size": the largest single process of the tree (bytes); null without /usr/bin/time. */
  maxSingleRssBytes: number | null;
  /** GNU time's user plus system time of the whole tree (seconds); null without /usr/bin/time. */
  cpuSeconds: number | null;
  /**
   * Steal time over the run, all CPUs together (seconds; /proc/stat): time this virtual machine's CPUs were ready to
   * run but the host ran something else. A wall time measured while the host steals is not this code's alone.
   */
  stealSeconds: number | null;
}

/** The machine's total steal time so far (seconds; /proc/stat's "cpu" line, field 8, in USER_HZ 100ths), or null. */
function stealSoFar(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    return cpu[0] === 'cpu' && cpu[8] !== undefined ? Number(cpu[8]) / 100 : null;
  } catch {
    return null;
  }
}

/** Runs the TypeScript entry point `script` with tsx on this Node (the project's Node 24), under GNU time when present. */
export function runTsx(root: string, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  // As `npm run daily` and the systemd unit run it: one Node process with tsx's loader (tsx's own command line adds a
  // second process that only relays signals).
  const command = [process.execPath, '--import', 'tsx', script, ...args];
  const timed = existsSync(GNU_TIME);
  const [file, ...rest] = timed ? [GNU_TIME, '-v', ...command] : command;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const stealBefore = stealSoFar();
    const child = spawn(file!, rest, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let peak: number | null = null;
    const sample = () => {
      if (child.pid === undefined) return;
      const total = treeRssBytes(child.pid);
      if (total !== null) peak = Math.max(peak ?? 0, total);
    };
    const timer = setInterval(sample, 100);
    child.on('error', (error) => {
      clearInterval(timer);
      reject(new Error(`Could not start ${file}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearInterval(timer);
      const wallSeconds = (performance.now() - started) / 1000;
      const stealAfter = stealSoFar();
      const maxKb = timed ? /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] : undefined;
      const user = timed ? /User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] : undefined;
      const system = timed ? /System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] : undefined;
      resolve({
        code,
        wallSeconds,
        stdout,
        stderr,
        peakTreeRssBytes: peak,
        maxSingleRssBytes: maxKb === undefined ? null : Number(maxKb) * 1024,
        cpuSeconds: user === undefined || system === undefined ? null : Number(user) + Number(system),
        stealSeconds: stealBefore === null || stealAfter === null ? null : stealAfter - stealBefore,
      });
    });
  });
}

/** Sum of the resident set sizes of `pid` and every descendant, from /proc; null when /proc cannot be read. */
function treeRssBytes(pid: number): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may contain spaces and parentheses: the fields after the last ")" are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // The process ended between readdir and read.
    }
  }
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.pop()!;
    try {
      total += Number(readFileSync(`/proc/${current}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
    } catch {
      // Ended while sampling.
    }
    queue.push(...(children.get(current) ?? []));
  }
  return total;
}
