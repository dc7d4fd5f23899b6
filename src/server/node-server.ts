/**
 * The Node HTTP server around the app: @hono/node-server's, with one rule Hono cannot keep because it runs after Node
 * has taken the request: a GET or HEAD that declares a body is answered 400 at once and its connection closed, so the
 * body is never read (Node would otherwise drain it to the end to keep the connection alive).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { SECURITY_HEADERS } from './security';

/** What a GET or HEAD with a body is told. */
export const BODY_ON_GET_MESSAGE = 'A GET or HEAD request carries no body: send it without one (no Content-Length above 0, no Transfer-Encoding).';

/** Whether a request declares a body its method must not have. */
export function bodyOnBodylessMethod(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

/** `listener`, except that a GET or HEAD with a body gets a 400 and a closed connection, its body unread. */
export function refuseBodyOnGetOrHead(listener: RequestListener): RequestListener {
  return (req, res) => {
    if (!bodyOnBodylessMethod(req)) {
      listener(req, res);
      return;
    }
    const body = JSON.stringify({ error: BODY_ON_GET_MESSAGE });
    // Not reading the body: the socket stops taking it, and is closed once the answer is out.
    req.socket.pause();
    res.writeHead(400, { ...SECURITY_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' });
    // Node sends no body to a HEAD.
    res.end(body, () => req.socket.destroy());
  };
}

/** node:http's createServer with the GET/HEAD body rule in front of the listener. */
const guardedCreateServer = ((options: ServerOptions, listener: RequestListener) => createServer(options, refuseBodyOnGetOrHead(listener))) as typeof createServer;

/** Serves `fetch` on `port` and `hostname` as @hono/node-server's serve does, with the GET/HEAD body rule. */
export function serveApp(options: { fetch: Parameters<typeof serve>[0]['fetch']; port: number; hostname?: string }, onListen?: (info: AddressInfo) => void): Server {
  return serve({ ...options, createServer: guardedCreateServer }, onListen) as Server;
}
