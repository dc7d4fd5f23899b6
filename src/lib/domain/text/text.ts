/**
 * Text hygiene shared by the export parser and the routes that take a name (DESIGN.md "Security rules"): invisible
 * characters that reorder or hide text are removed before a length is measured, and formula-like cells are told apart.
 */

// C0 and C1 controls (tab and line breaks included: a name is one line), bidi embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069), marks (U+200E, U+200F, U+061C), and zero-width characters (U+200B-U+200D,
// U+2060, U+FEFF).
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u061c\ufeff]/g;

/** The text without control, bidi-override and zero-width characters, trimmed. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '').trim();
}

/** Most characters of an uploaded text that an error message or warning quotes. */
export const QUOTED_CHARS = 80;

/** Text from an upload as a message may quote it: at most QUOTED_CHARS characters, a longer text cut and ended with "…". */
export function excerpt(text: string, max = QUOTED_CHARS): string {
  if (text.length <= max) return text;
  // A cut between the two halves of a surrogate pair would leave half a character.
  const cut = /[\ud800-\udbff]$/.test(text.slice(0, max - 1)) ? max - 2 : max - 1;
  return `${text.slice(0, cut)}…`;
}

/** Longest company name, counted after stripInvisible (the export's cell limit defaults to it). */
export const MAX_NAME_CHARS = 200;

const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** Whether a spreadsheet would run the text as a formula: it starts with = + - @, tab or CR (a plain number such as -40.5 does not). */
export function isFormulaLike(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text);
}

/** Upper-cases a-z only: `ıbm` stays `ıBM` and `ß` stays `ß` (Unicode rules would make them IBM and SS). */
export function asciiUpper(text: string): string {
  return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/**
 * An export's bytes as text: UTF-8 (a BOM allowed), or UTF-16 when it starts with its byte-order mark, as Excel's
 * "Unicode Text" writes it. Null when the bytes are not valid text in that encoding.
 */
export function decodeExportText(bytes: Uint8Array): string | null {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  try {
    // The decoder drops the BOM itself.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Whether the bytes start with a UTF-16 byte-order mark. */
export function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

const MARKUP_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe in HTML or XML, in element content and in quoted attributes alike: & < > " ' become entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => MARKUP_ENTITIES[c]!);
}
