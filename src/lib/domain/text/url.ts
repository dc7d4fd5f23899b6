/** Links from data and settings (DESIGN.md "Security rules"): only http: and https: addresses ever become links. */

/** The address normalised when it is an absolute http(s) URL, else null (`javascript:`, relative, garbage). */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
