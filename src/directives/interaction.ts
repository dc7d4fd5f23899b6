import type { ClientDirective } from 'astro';

/** What counts as the visitor starting to use the page. */
const INTERACTIONS = ['pointerdown', 'pointermove', 'keydown', 'focusin', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * `client:interaction`: hydrates an island on the visitor's first interaction with the page (a pointer, a key, focus,
 * a scroll), so a page that is read without interacting downloads and runs no script at all (the /ai-analysis page:
 * its facts are HTML). With `{ param: "ticker" }` it hydrates at once when the address has that query parameter,
 * since the visitor has already asked for something.
 */
const interaction: ClientDirective = (load, options, el) => {
  let started = false;
  const hydrate = () => {
    if (started) return;
    started = true;
    for (const type of INTERACTIONS) removeEventListener(type, hydrate, { capture: true });
    void load().then((run) => run());
  };
  const value = options.value as { param?: string } | boolean | undefined;
  const param = typeof value === 'object' ? value.param : undefined;
  if (param !== undefined && new URLSearchParams(location.search).has(param)) {
    hydrate();
    return;
  }
  for (const type of INTERACTIONS) addEventListener(type, hydrate, { capture: true, passive: true });
  // A focus already inside the island (a restored page) counts too.
  if (el.contains(document.activeElement)) hydrate();
};

export default interaction;
