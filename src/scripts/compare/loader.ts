/**
 * How /compare's view gets its stocks: from the comparison's worker (./load-worker), so the schemas never run on the
 * page's main thread; where no worker starts, from ./load in the page itself, loaded on demand.
 */
import type { CompareSpan, Loaded, LoadAnswer, LoadRequest } from './load';

/** Loads one stock of the comparison for a window; never rejects (a failure is the 'error' state). */
export type StockLoader = (ticker: string, span: CompareSpan) => Promise<Loaded>;

function loadInPage(ticker: string, span: CompareSpan): Promise<Loaded> {
  return import('./load').then(
    ({ loadStock }) => loadStock(ticker, span),
    (error: unknown) => ({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
}

/** A loader backed by one worker for the page's life; the stocks asked of a worker that fails load in the page. */
export function compareLoader(): StockLoader {
  const pending = new Map<number, { request: LoadRequest; resolve: (loaded: Loaded) => void }>();
  let nextId = 0;
  let worker: Worker | null = null;
  const fallBack = () => {
    worker?.terminate();
    worker = null;
    for (const [id, { request, resolve }] of pending) {
      pending.delete(id);
      void loadInPage(request.ticker, request.span).then(resolve);
    }
  };
  try {
    worker = new Worker(new URL('./load-worker.ts', import.meta.url), { type: 'module', name: 'compare' });
    worker.addEventListener('message', (event: MessageEvent<LoadAnswer>) => {
      const waiting = pending.get(event.data.id);
      if (!waiting) return;
      pending.delete(event.data.id);
      waiting.resolve(event.data.result);
    });
    worker.addEventListener('error', fallBack);
  } catch {
    worker = null;
  }
  return (ticker, span) => {
    if (worker === null) return loadInPage(ticker, span);
    const request: LoadRequest = { id: nextId++, ticker, span };
    return new Promise((resolve) => {
      pending.set(request.id, { request, resolve });
      worker!.postMessage(request);
    });
  };
}
