/** Registers the service worker once the page has loaded, and notes the page's report for the offline page. */
import { APP_FILES, LAST_REPORT_KEY } from '../lib/domain/site/app-manifest';

export function registerAppWorker(): void {
  const start = () => {
    const date = document.querySelector<HTMLMetaElement>('meta[name="report-date"]')?.content;
    try {
      if (date) localStorage.setItem(LAST_REPORT_KEY, date);
    } catch {
      // Storage off: the offline page says no report was seen.
    }
    if ('serviceWorker' in navigator) navigator.serviceWorker.register(APP_FILES.worker, { scope: '/' }).catch((error: unknown) => console.error('The service worker could not be registered:', error));
  };
  if (document.readyState === 'complete') start();
  else addEventListener('load', start, { once: true });
}
