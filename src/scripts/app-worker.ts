/** Links the manifest and registers the service worker once the loaded page has painted, and notes the page's report for the offline page. */
import { APP_FILES, LAST_REPORT_KEY } from '../lib/domain/site/app-manifest';

export function registerAppWorker(): void {
  const start = () => {
    if (!document.querySelector('link[rel="manifest"]')) {
      const manifest = document.createElement('link');
      manifest.rel = 'manifest';
      manifest.href = APP_FILES.manifest;
      document.head.append(manifest);
    }
    const date = document.querySelector<HTMLMetaElement>('meta[name="report-date"]')?.content;
    try {
      if (date) localStorage.setItem(LAST_REPORT_KEY, date);
    } catch {
      // Storage off: the offline page says no report was seen.
    }
    if ('serviceWorker' in navigator) navigator.serviceWorker.register(APP_FILES.worker, { scope: '/' }).catch((error: unknown) => console.error('The service worker could not be registered:', error));
  };
  // After the frame that follows load: a page can load before its first frame, and these requests come after it.
  const afterLoadFrame = () => requestAnimationFrame(() => setTimeout(start, 0));
  if (document.readyState === 'complete') afterLoadFrame();
  else addEventListener('load', afterLoadFrame, { once: true });
}
