/**
 * A GET or HEAD that declares a body gets a 400 at once and its connection closed, the body unread: the server of
 * `npm start` (serveApp) on loopback, spoken to over a raw socket that keeps streaming the declared 400 MB.
 */
import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { BODY_ON_GET_MESSAGE, serveApp } from '../../src/server/node-server';

const DIST = fileURLToPath(new URL('../fixtures/dist-mini', import.meta.url));
const DECLARED = 400 * 1024 * 1024;
// What the client tries to send before giving up; the server must answer and close long before.
const STREAMED = 64 * 1024 * 1024;

let server: Server;
let port: number;

beforeAll(async () => {
  const app = createApp({ distDir: DIST });
  server = await new Promise((resolve) => {
    const s = serveApp({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

interface Exchange {
  answer: string;
  /** Bytes of body the client wrote before the connection was closed. */
  written: number;
  ms: number;
  closed: boolean;
}

/** Sends `head`, then streams body bytes until STREAMED or the server closes; what came back. */
function exchange(head: string, chunked = false): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    let answer = '';
    let written = 0;
    let done = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const piece = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ answer, written, ms: performance.now() - started, closed });
    };
    const pump = () => {
      while (!done && written < STREAMED) {
        written += chunk.length;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('close', () => finish(true));
    // The server closing while the client still writes is a reset: the answer was read before it.
    socket.on('error', () => finish(true));
    setTimeout(() => finish(false), 10_000);
    socket.write(head);
    pump();
  });
}

describe('GET or HEAD with a body', () => {
  it.each([
    ['GET', '/', false],
    ['GET', '/api/health', false],
    ['HEAD', '/', false],
    ['GET', '/', true],
  ] as const)('%s %s with a declared body (chunked: %s) gets 400 at once, the body unread', async (method, path, chunked) => {
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${DECLARED}`;
    const result = await exchange(`${method} ${path} HTTP/1.1\r\nHost: signals.example\r\n${framing}\r\n\r\n`, chunked);
    expect(result.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(result.answer).toMatch(/\r\nconnection: close\r\n/i);
    if (method === 'GET') expect(result.answer).toContain(JSON.stringify({ error: BODY_ON_GET_MESSAGE }));
    // The connection is closed by the server, not by the client giving up, well before the streamed bytes went out.
    expect(result.closed).toBe(true);
    expect(result.written).toBeLessThan(STREAMED);
    expect(result.ms).toBeLessThan(5_000);
  });

  it('a GET with Content-Length: 0, and one without a body, are served as usual on one connection', async () => {
    const result = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (data) => {
        answer += data.toString('latin1');
        if ((answer.match(/HTTP\/1\.1 200 /g) ?? []).length === 2) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
      socket.write('GET /favicon.svg HTTP/1.1\r\nHost: signals.example\r\nContent-Length: 0\r\n\r\nGET /favicon.svg HTTP/1.1\r\nHost: signals.example\r\n\r\n');
      setTimeout(() => reject(new Error(`no second answer: ${answer.slice(0, 200)}`)), 5_000);
    });
    expect(result).not.toContain(' 400 ');
  });
});
