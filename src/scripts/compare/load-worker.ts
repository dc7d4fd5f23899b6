/**
 * /compare's worker: loads each stock the page asks for (./load) off the main thread, so the schemas' evaluation
 * and the files' checks never block the page.
 */
import { loadStock, type LoadAnswer, type LoadRequest } from './load';

// The worker's global scope: its postMessage takes no target origin.
const scope = self as unknown as { postMessage(message: LoadAnswer): void; addEventListener(type: 'message', listener: (event: MessageEvent<LoadRequest>) => void): void };

scope.addEventListener('message', ({ data }) => {
  void loadStock(data.ticker, data.span).then((result) => scope.postMessage({ id: data.id, result }));
});
