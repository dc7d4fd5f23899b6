/** Spec section 9: the C-Score counts up over 1500 ms. */
const COUNT_UP_MS = 1500;

/**
 * Counts an element's number up from 0 to its `data-countup` value, ending on the text it had (the static
 * HTML already shows the final score, so crawlers, no-JS visitors and reduced-motion users see it at once).
 */
export function countUp(el: HTMLElement, durationMs: number = COUNT_UP_MS): () => void {
  const end = Number(el.dataset.countup);
  const final = el.textContent ?? '';
  if (!Number.isFinite(end) || matchMedia('(prefers-reduced-motion: reduce)').matches) return () => undefined;
  const started = performance.now();
  let frame = 0;
  let last = -Infinity;
  const step = (now: number) => {
    const k = Math.min(1, (now - started) / durationMs);
    // About 10 updates a second read as counting and keep the main thread free on slow phones.
    if (k === 1 || now - last >= 100) {
      last = now;
      const eased = 1 - (1 - k) ** 3;
      el.textContent = k < 1 ? (end * eased).toFixed(2) : final;
    }
    if (k < 1) frame = requestAnimationFrame(step);
  };
  frame = requestAnimationFrame(step);
  return () => {
    cancelAnimationFrame(frame);
    el.textContent = final;
  };
}
