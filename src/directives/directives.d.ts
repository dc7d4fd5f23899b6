/** The project's own client directive (src/directives/after-paint.ts, registered in astro.config.mjs). */
declare namespace Astro {
  interface ClientDirectives {
    'client:afterpaint'?: boolean | { rootMargin?: string; threshold?: number };
  }
}
