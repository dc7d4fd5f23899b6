/**
 * The number validator of the AI texts: every number in a generated text must be one the facts sheet holds. Dates are
 * read as dates (2026-11-20, Nov 20, 2026), numbers as written (signs, thousands commas, decimals, percent), and a
 * number written with fewer decimals matches a fact it rounds from (72.4 for 72.35). Digits inside a word (a ticker
 * such as BF.B, "Q3") and the numbers of a Markdown ordered list are not figures.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const MONTH_DATE = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/gi;
const NUMBER = /(?<![A-Za-z0-9_.])([-+\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?%?(?![A-Za-z0-9_]|\.\d)/g;
const LIST_MARKER = /^(\s*)\d+[.)]\s/gm;

/** A figure found in a text: as written, its value and its decimals. */
export interface FoundNumber {
  text: string;
  value: number;
  decimals: number;
  /** Written with "%": it stands only for a percentage of the facts. */
  percent: boolean;
}

/** The dates and numbers of a text. */
export interface FoundFigures {
  dates: string[];
  numbers: FoundNumber[];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Reads the dates and numbers out of a text (Markdown or plain). */
export function figuresIn(text: string): FoundFigures {
  const dates: string[] = [];
  let rest = text.replace(ISO_DATE, (whole) => {
    dates.push(whole);
    return ' ';
  });
  rest = rest.replace(MONTH_DATE, (_, month: string, day: string, year: string) => {
    dates.push(`${year}-${pad(MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1)}-${pad(Number(day))}`);
    return ' ';
  });
  rest = rest.replace(LIST_MARKER, '$1');
  const numbers: FoundNumber[] = [];
  for (const match of rest.matchAll(NUMBER)) {
    const sign = match[1] === '' || match[1] === '+' ? 1 : -1;
    const value = sign * Number(`${match[2]!.replace(/,/g, '')}${match[3] ?? ''}`);
    numbers.push({ text: match[0], value, decimals: match[3] ? match[3].length - 1 : 0, percent: match[0].endsWith('%') });
  }
  return { dates, numbers };
}

/** True when `written` (with its decimals) can stand for `fact`: equal, or `fact` rounded to those decimals; the sign may be left out. */
function stands(written: FoundNumber, fact: FoundNumber): boolean {
  if (written.percent !== fact.percent) return false;
  const tolerance = 0.5 * 10 ** -written.decimals + 1e-9;
  return Math.abs(written.value - fact.value) <= tolerance || Math.abs(Math.abs(written.value) - Math.abs(fact.value)) <= tolerance;
}

/** What a text says that its facts do not hold: the numbers and dates as written. Empty means the text passes. */
export function unsupportedFigures(text: string, factsText: string): string[] {
  const facts = figuresIn(factsText);
  const factDates = new Set(facts.dates);
  // A date of the facts also holds its parts (a text may say "on the 20th"); its year is in there too.
  const dateParts = facts.dates.flatMap((d) => d.split('-').map((part) => ({ text: part, value: Number(part), decimals: 0, percent: false })));
  const factValues = [...facts.numbers, ...dateParts];
  const found = figuresIn(text);
  const problems: string[] = [];
  for (const date of found.dates) if (!factDates.has(date)) problems.push(date);
  for (const number of found.numbers) if (!factValues.some((fact) => stands(number, fact))) problems.push(number.text);
  return [...new Set(problems)];
}
