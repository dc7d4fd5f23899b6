/** The project's own client directives (src/directives/, registered in astro.config.mjs). */
declare namespace Astro {
  interface ClientDirectives {
    'client:afterpaint'?: boolean | { rootMargin?: string; threshold?: number; replay?: boolean; scroll?: boolean };
    /** src/directives/interaction.ts: on the first interaction, or at once when the address has `param`. */
    'client:interaction'?: boolean | { param?: string };
  }
}
