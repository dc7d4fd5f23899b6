/**
 * The origins a browser may reach a development server at: the one it listens on (HOST, PORT) and, for the same
 * port, localhost and 127.0.0.1. Outside production they are trusted besides SITE_URL's, so sign-up works however
 * the server was started; production trusts SITE_URL alone.
 */

/** Addresses that mean "every interface": a browser reaches them as localhost. */
const ANY_INTERFACE = new Set(['0.0.0.0', '::', '[::]', '']);

/** `http://{host}:{port}`, `http://localhost:{port}`, `http://127.0.0.1:{port}`, without repeats; none for port 0 (chosen at listen). */
export function listenOrigins(host: string, port: number): string[] {
  if (!Number.isInteger(port) || port <= 0) return [];
  const hosts = ['localhost', '127.0.0.1'];
  const name = host.trim().toLowerCase();
  if (!ANY_INTERFACE.has(name)) hosts.unshift(name.includes(':') && !name.startsWith('[') ? `[${name}]` : name);
  const origins: string[] = [];
  for (const h of hosts) {
    try {
      const origin = new URL(`http://${h}:${port}`).origin;
      if (!origins.includes(origin)) origins.push(origin);
    } catch {
      // A HOST that is no host name (the config accepts any text) adds no origin.
    }
  }
  return origins;
}
