/**
 * The upload check of a 24 MB one-line CSV header, as an operator over loopback against the real routes and the
 * daily job's parser: refused with a short message naming the limit, and the server's event loop never held for
 * 100 ms meanwhile (it used to be held 22 s, and the whole header echoed back).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorTools } from '../../src/ingest/operator-tools';
import { RunLog } from '../../src/storage/run-log';
import { cookiesOf } from '../fixtures/account-server';
import { keepingMailer, testAccounts } from '../fixtures/accounts';
import { dailyIn, serveDaily } from '../fixtures/daily';
import { watchEventLoop } from '../fixtures/event-loop';

const SITE = 'https://signals.example';
const HEADER_BYTES = 24 * 1024 * 1024;
const MAX_BLOCK_MS = 100;

let work: string;
let server: ServerType;
let origin: string;
let accounts: Awaited<ReturnType<typeof testAccounts>>;
let operator: string;

async function authPost(path: string, body: object): Promise<Response> {
  const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SITE }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'upload-check-'));
  await mkdir(join(work, 'source'));
  accounts = await testAccounts({ mail: keepingMailer(), adminEmails: ['ops@example.com'] });
  const daily = dailyIn(work);
  ({ server, origin } = await serveDaily(daily, accounts, { siteUrl: SITE, operatorTools: operatorTools(daily, new RunLog(accounts.database.db)) }));
  // The operator's address confirmed (as the operator role requires), then a fresh session that knows it.
  const password = 'correct horse battery';
  await authPost('/api/auth/sign-up/email', { email: 'ops@example.com', password, name: '' });
  await accounts.database.db.updateTable('user').set({ emailVerified: accounts.database.type === 'sqlite' ? 1 : true }).where('email', '=', 'ops@example.com').execute();
  operator = cookiesOf(await authPost('/api/auth/sign-in/email', { email: 'ops@example.com', password }));
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await accounts?.dispose();
  await rm(work, { recursive: true, force: true });
});

/** A multipart form of one file, as bytes, and its content type. */
async function formOf(csv: Uint8Array): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'signals-2026-11-20.csv');
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! };
}

/** One upload check of a prepared form, sent in 64 KB writes; its answer, and how long the event loop was held meanwhile. */
async function checkWhileWatching(form: { body: Buffer; type: string }): Promise<{ status: number; text: string; heldMs: number; delayMs: number; ms: number }> {
  const stop = watchEventLoop();
  const started = performance.now();
  const { hostname, port } = new URL(origin);
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const sent = httpRequest(
      { hostname, port, path: '/api/admin/uploads/check', method: 'POST', headers: { origin: SITE, cookie: operator, 'content-type': form.type, 'content-length': String(form.body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    sent.on('error', reject);
    let at = 0;
    const write = () => {
      while (at < form.body.length) {
        const more = sent.write(form.body.subarray(at, at + 65_536));
        at += 65_536;
        if (!more) return void sent.once('drain', write);
      }
      sent.end();
    };
    write();
  });
  return { ...answer, ...stop(), ms: performance.now() - started };
}

describe('upload check of a 24 MB one-line header', () => {
  it('answers 422 with a short message naming the limit, never holding the event loop 100 ms', async () => {
    const header = Buffer.alloc(HEADER_BYTES, 'abcdefghi,');
    Buffer.from('Ticker,C-Score,Report Date,').copy(header);
    const form = await formOf(Buffer.concat([header, Buffer.from('\nAAPL,1,2026-11-20,2\n')]));
    // The best of up to three runs: a real block shows in every run, a hiccup of the machine in one.
    const runs: Awaited<ReturnType<typeof checkWhileWatching>>[] = [];
    for (let attempt = 0; attempt < 3 && (runs.length === 0 || Math.min(...runs.map((r) => r.heldMs)) >= MAX_BLOCK_MS); attempt += 1) {
      runs.push(await checkWhileWatching(form));
    }
    for (const run of runs) {
      expect(run.status).toBe(422);
      expect(run.text.length).toBeLessThan(2048);
      const { problems } = JSON.parse(run.text) as { problems: { file: string; row?: number; message: string }[] };
      expect(problems).toEqual([
        {
          file: 'signals-2026-11-20.csv',
          row: 1,
          message:
            'Row 1 (the header) runs past 400,000 bytes without ending: a row may hold 100 columns (EXPORT_MAX_COLUMNS) of 1,000 characters a cell (EXPORT_MAX_CELL_CHARS). Shorten its cells or delete the columns the export does not need.',
        },
      ]);
    }
    const best = Math.min(...runs.map((r) => r.heldMs));
    const seen = runs.map((r) => `held ${r.heldMs.toFixed(0)} ms of CPU at most, delayed ${r.delayMs.toFixed(0)} ms at most, answered in ${r.ms.toFixed(0)} ms`).join('; ');
    expect(best, seen).toBeLessThan(MAX_BLOCK_MS);
  }, 120_000);
});
