import type { ClientDirective } from 'astro';

/** Runs `run` once the page's first contentful frame has been presented (or, lacking paint timing, after load). */
function afterFirstPaint(run: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    setTimeout(run, 0);
  };
  // The paint entry arrives once the frame is on screen, later than an animation frame or the paint task.
  const paintTiming = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  if (paintTiming) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.name === 'first-contentful-paint')) {
        observer.disconnect();
        go();
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  }
  // A browser without paint timing: after load and a frame. With paint timing, the same only as a safety net
  // (a page that never reports a contentful paint), long after load: a busy phone may present its first frame late.
  const afterLoad = () => requestAnimationFrame(() => setTimeout(go, paintTiming ? 5000 : 0));
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad, { once: true });
}

/**
 * `client:afterpaint`: hydrates an island once the page's first contentful frame is on screen, so nothing of it
 * downloads or runs before the largest paint (client:load starts at once; client:idle and client:visible can start
 * before the first frame is presented). With `{ rootMargin, threshold }` it then also waits until the island is in
 * view (threshold 1: wholly in view).
 */
const afterPaint: ClientDirective = (load, options, el) => {
  const hydrate = async () => {
    const run = await load();
    await run();
  };
  const value = options.value as { rootMargin?: string; threshold?: number } | boolean | undefined;
  const view = typeof value === 'object' && (value.rootMargin !== undefined || value.threshold !== undefined) ? value : undefined;
  afterFirstPaint(() => {
    if (view === undefined) {
      void hydrate();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void hydrate();
      },
      { rootMargin: view.rootMargin, threshold: view.threshold },
    );
    for (const child of el.children) observer.observe(child);
  });
};

export default afterPaint;
