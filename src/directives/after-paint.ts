import type { ClientDirective } from 'astro';

/**
 * Runs `run` once the page's first contentful frame has been presented (or, lacking paint timing, after load), and
 * the frame after the document's parse: a first frame painted while the parser was still under way lacks the page's
 * later content, whose paint may be the largest, and nothing of the island may come before that.
 */
function afterFirstPaint(run: () => void): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    const afterParsedFrame = () => requestAnimationFrame(() => setTimeout(run, 0));
    if (document.readyState === 'loading') addEventListener('DOMContentLoaded', afterParsedFrame, { once: true });
    else afterParsedFrame();
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

/** The elements under `parent` that have a box: a slot shown as `display: contents` has none, its children do. */
function boxes(parent: Element): Element[] {
  return [...parent.children].flatMap((child) => (getComputedStyle(child).display === 'contents' ? boxes(child) : [child]));
}

/**
 * `client:afterpaint`: hydrates an island once the page's first contentful frame is on screen, so nothing of it
 * downloads or runs before the largest paint (client:load starts at once; client:idle and client:visible can start
 * before the first frame is presented). With `{ rootMargin, threshold }` it then also waits until the island is in
 * view (threshold 1: wholly in view). With `{ replay: true }` a click on a button of the island before it runs
 * hydrates it at once and is replayed on the same button once it runs, so a control works on the first press.
 * With `{ scroll: true }` the page's first scroll after the paint hydrates it too: a reader heading down the page
 * gets the island's work done before it comes into view, and a page nobody scrolls never runs it before it is seen.
 * An element marked `data-hold` by a page script waits, on view or scroll, until the mark is removed.
 */
const afterPaint: ClientDirective = (load, options, el) => {
  let started = false;
  let done = false;
  let pending: HTMLElement | null = null;
  const hydrate = async () => {
    if (started) return;
    started = true;
    const run = await load();
    await run();
    done = true;
    el.removeEventListener('click', early, { capture: true });
    // A frame for the island's first effects, then the press it missed.
    const replay = pending;
    if (replay) requestAnimationFrame(() => requestAnimationFrame(() => replay.click()));
  };
  const early = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button') : null;
    if (done || !button || !el.contains(button)) return;
    event.preventDefault();
    event.stopPropagation();
    pending = button;
    void hydrate();
  };
  // An island whose element a page script marks `data-hold` (work that must reach the screen first, which the
  // island's own start would slow) starts on view once the mark is gone; a press still starts it at once.
  const unheld = (go: () => void) => {
    if (!el.hasAttribute('data-hold')) return go();
    const watch = new MutationObserver(() => {
      if (el.hasAttribute('data-hold')) return;
      watch.disconnect();
      go();
    });
    watch.observe(el, { attributes: true, attributeFilter: ['data-hold'] });
  };
  const value = options.value as { rootMargin?: string; threshold?: number; replay?: boolean; scroll?: boolean } | boolean | undefined;
  if (typeof value === 'object' && value.replay) el.addEventListener('click', early, { capture: true });
  const view = typeof value === 'object' && (value.rootMargin !== undefined || value.threshold !== undefined) ? value : undefined;
  afterFirstPaint(() => {
    if (view === undefined) {
      void hydrate();
      return;
    }
    if (view.scroll) addEventListener('scroll', () => unheld(() => void hydrate()), { once: true, passive: true });
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        unheld(() => void hydrate());
      },
      { rootMargin: view.rootMargin, threshold: view.threshold },
    );
    for (const child of boxes(el)) observer.observe(child);
  });
};

export default afterPaint;
