/**
 * How numbers and dates read on screen (spec sections 2 and 5). Every figure shown in two places goes through
 * one of these functions. Dates are calendar dates formatted in UTC, so a report date 'yyyy-mm-dd' reads as
 * that day whatever the machine's or the visitor's time zone.
 */
/** Shown for a missing number. */
export const MISSING_NUMBER = '—';

/** Shown for a missing date or market cap. */
export const NOT_AVAILABLE = 'N/A';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// en-US grouping and dates are done here rather than with Intl: the first Intl formatter a page creates loads the
// ICU data, about 45 ms of main thread on this machine (180 ms on a 4x slower phone), which alone broke the stock
// page's total-blocking-time budget. The output is the same as Intl's en-US for these formats (tests pin it down).
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Digits with a comma every three from the right: '1234567.5' reads '1,234,567.5'. */
function groupThousands(digits: string): string {
  const [whole = '', fraction] = digits.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** `value` rounded to `decimals` places (ties away from zero, like Intl), grouped, with a minus when below zero. */
function groupedFixed(value: number, decimals: number): string {
  const text = Math.abs(value).toFixed(decimals);
  const negative = value < 0 && Number(text) !== 0;
  return `${negative ? '-' : ''}${groupThousands(text)}`;
}

/** True for a finite number; null, undefined and NaN are missing. */
function isPresent(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** `value.toFixed(digits)` without a minus sign on a value that rounds to zero. */
function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  // -0.001 would otherwise read '-0.00', a sign the eye takes for a bearish value.
  return Number(text) === 0 ? text.replace('-', '') : text;
}

/** `fixed` with a '+' in front of a positive value. */
function signedFixed(value: number, digits: number): string {
  const text = fixed(value, digits);
  return Number(text) > 0 ? `+${text}` : text;
}

/** True for an ISO 'yyyy-mm-dd' that names a real calendar date (no 2025-02-30). */
export function isCalendarDate(iso: string): boolean {
  return calendarParts(iso) !== null;
}

/**
 * Year, month (1 to 12) and day of an ISO 'yyyy-mm-dd' that names a real calendar date, or null. Worked out without
 * a Date: every stock page formats about 200 chart dates while it renders (6,000 pages a morning), and making a
 * Date of each was a second of the build's time.
 */
function calendarParts(iso: string): [number, number, number] | null {
  const match = ISO_DATE.exec(iso);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Years before 100 are left out, as Date.UTC (which reads them as 19xx) left them out.
  if (year < 100 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days ? [year, month, day] : null;
}

/**
 * The calendar date a value names, as year, month (1 to 12) and day: a date-only string as that date, any other
 * string or Date as the UTC date of the instant it names; null when invalid.
 */
function dateParts(value: string | Date | null | undefined): [number, number, number] | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : [value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate()];
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  if (ISO_DATE.test(text)) return calendarParts(text);
  return dateParts(new Date(text));
}

/** C-Score with 2 decimals; exactly 100 and -100 show none; missing shows '—'. */
export function formatScore(score: number | null | undefined): string {
  if (!isPresent(score)) return MISSING_NUMBER;
  if (score === 100 || score === -100) return String(score);
  return fixed(score, 2);
}

/** Yesterday's C-Score with 1 decimal, for 'vs {x} yesterday'; missing shows '—'. */
export function formatYesterdayScore(score: number | null | undefined): string {
  return isPresent(score) ? fixed(score, 1) : MISSING_NUMBER;
}

/** Signed C-Score with 1 decimal ('+72.4', '-68.0', '0.0'), for similar tickers; missing shows '—'. */
export function formatSignedScore(score: number | null | undefined): string {
  return isPresent(score) ? signedFixed(score, 1) : MISSING_NUMBER;
}

/** The filled part of a bar centred on 0: which side, where it starts and how wide it is, in percent of the bar. */
export interface ScoreBarFill {
  side: 'positive' | 'negative' | 'none';
  startPercent: number;
  widthPercent: number;
}

/** Fill of the centred C-Score bar: |score| / 2 percent wide, at most 50, growing right from the centre when positive, left when negative. */
export function scoreBarFill(score: number | null | undefined): ScoreBarFill {
  if (!isPresent(score) || score === 0) return { side: 'none', startPercent: 50, widthPercent: 0 };
  const widthPercent = Math.min(50, Math.abs(score) / 2);
  return score > 0
    ? { side: 'positive', startPercent: 50, widthPercent }
    : { side: 'negative', startPercent: 50 - widthPercent, widthPercent };
}

/** Market cap as '$x.xxB' at or above 1e9, else '$x.xxM'; missing, zero or not a number shows 'N/A'. */
export function formatMarketCap(marketCap: number | null | undefined): string {
  if (!isPresent(marketCap) || marketCap === 0) return NOT_AVAILABLE;
  return marketCap >= 1e9
    ? `$${groupedFixed(marketCap / 1e9, 2)}B`
    : `$${groupedFixed(marketCap / 1e6, 2)}M`;
}

/** Price in US dollars with 2 decimals ('$1,234.50'); missing shows '—'. */
export function formatPrice(price: number | null | undefined): string {
  if (!isPresent(price)) return MISSING_NUMBER;
  const text = groupedFixed(price, 2);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** Signed price change with 2 decimals ('+1.23', '-0.45', '0.00'); missing shows '—'. */
export function formatChange(change: number | null | undefined): string {
  return isPresent(change) ? signedFixed(change, 2) : MISSING_NUMBER;
}

/** Signed percent with 2 decimals from a value already in percent (1.234 reads '+1.23%'); missing shows '—'. */
export function formatPercent(percent: number | null | undefined): string {
  return isPresent(percent) ? `${signedFixed(percent, 2)}%` : MISSING_NUMBER;
}

/** Dividend yield given as a fraction, shown as a percent with 2 decimals (0.0123 reads '1.23%'); missing shows '—'. */
export function formatDividendYield(fraction: number | null | undefined): string {
  return isPresent(fraction) ? `${fixed(fraction * 100, 2)}%` : MISSING_NUMBER;
}

/** Share volume with en-US grouping and no decimals ('1,234,567'); missing shows '—'. */
export function formatVolume(volume: number | null | undefined): string {
  return isPresent(volume) ? groupedFixed(volume, 0) : MISSING_NUMBER;
}

/** Date as short month, day, year ('Jan 5, 2025'); missing or invalid shows 'N/A'. */
export function formatDate(value: string | Date | null | undefined): string {
  const parts = dateParts(value);
  return parts ? `${MONTHS[parts[1] - 1]} ${parts[2]}, ${parts[0]}` : NOT_AVAILABLE;
}

/** Date as short month and day ('Jan 5'), for the modal's earnings badge; missing or invalid shows 'N/A'. */
export function formatShortDate(value: string | Date | null | undefined): string {
  const parts = dateParts(value);
  return parts ? `${MONTHS[parts[1] - 1]} ${parts[2]}` : NOT_AVAILABLE;
}

/** A date's short month name ('Jan'), for chart axis ticks; missing or invalid shows 'N/A'. */
export function formatMonthName(value: string | Date | null | undefined): string {
  const parts = dateParts(value);
  return parts ? MONTHS[parts[1] - 1]! : NOT_AVAILABLE;
}

/** Date as month/day ('1/5'), for chart axis labels; missing or invalid shows 'N/A'. */
export function formatMonthDay(value: string | Date | null | undefined): string {
  const parts = dateParts(value);
  return parts ? `${parts[1]}/${parts[2]}` : NOT_AVAILABLE;
}

/** Time of day in the visitor's time zone as en-US hours and minutes ('3:05 PM'). */
export function formatClockTime(date: Date): string {
  const hours = date.getHours();
  return `${hours % 12 || 12}:${String(date.getMinutes()).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}
