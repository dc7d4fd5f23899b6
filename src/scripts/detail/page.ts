/**
 * The stock detail page's own behaviour, loaded after the first paint: the back link names the section the
 * visitor came from, a logo that fails to load leaves the letter badge, the C-Score counts up, and the live
 * header (rendered at build time) comes to life. Plain TypeScript: a phone's first screen loads no framework.
 */
import { backTarget } from '../../lib/domain/site/back-section';
import { countUp } from './count-up';
import { copySnippet, mountHeaderLive } from './header-live';

// Back button: 'Back to {previous section}', returning to the previous path of this site, else '/'.
const back = document.getElementById('dt-back');
let previous: string | null = null;
try {
  const url = new URL(document.referrer);
  if (url.origin === location.origin) previous = url.pathname + url.search;
} catch {
  previous = null;
}
const target = backTarget(previous);
if (back?.lastElementChild) {
  back.lastElementChild.textContent = target.label;
  back.setAttribute('href', target.href);
}
// A logo that fails to load leaves the ticker's letter underneath (static HTML carries no React handlers).
for (const img of document.querySelectorAll<HTMLImageElement>('.avatar img')) {
  if (img.complete && img.naturalWidth === 0) img.remove();
  else img.addEventListener('error', () => img.remove());
}
const score = document.querySelector<HTMLElement>('[data-countup]');
if (score) countUp(score);

const live = document.getElementById('dt-live');
if (live?.dataset.ticker && live.dataset.reportDate) {
  mountHeaderLive(live, { ticker: live.dataset.ticker, reportDate: live.dataset.reportDate });
  live.dataset.hydrated = '';
}

// The Embed card's Copy buttons: its snippet to the clipboard; without them (no script) the snippet is selectable.
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy-from]')) {
  const source = document.getElementById(button.dataset.copyFrom ?? '') as HTMLTextAreaElement | null;
  if (source === null) continue;
  button.hidden = false;
  button.addEventListener('click', () => void copySnippet(source.value));
}
