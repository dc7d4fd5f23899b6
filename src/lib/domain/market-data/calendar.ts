/**
 * NYSE trading calendar: the regular full-day holidays by rule, and trading days derived from them.
 * Pure functions on ISO dates (yyyy-mm-dd), computed in UTC so the machine's time zone never matters.
 * Unscheduled closures (e.g. the national day of mourning on 2025-01-09) and early closes are not modelled.
 */

const DAY_MS = 86_400_000;
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 for an ISO date; throws on anything that is not a real calendar date. */
function toDayNumber(iso: string): number {
  const m = ISO_RE.exec(iso);
  if (!m) throw new RangeError(`expected a date as yyyy-mm-dd, got "${iso}"`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    throw new RangeError(`not a calendar date: "${iso}"`);
  }
  return ms / DAY_MS;
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday. */
function weekday(n: number): number {
  return new Date(n * DAY_MS).getUTCDay();
}

function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** The nth (1-based) given weekday of a month. */
function nthWeekday(year: number, month: number, wd: number, nth: number): number {
  const first = dayOf(year, month, 1);
  return first + ((wd - weekday(first) + 7) % 7) + (nth - 1) * 7;
}

/** The last given weekday of a month. */
function lastWeekday(year: number, month: number, wd: number): number {
  const last = dayOf(year, month + 1, 1) - 1;
  return last - ((weekday(last) - wd + 7) % 7);
}

/** Easter Sunday (Gregorian), anonymous algorithm (Meeus/Jones/Butcher). */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOf(year, month, day);
}

/** Saturday -> Friday before, Sunday -> Monday after. */
function observed(n: number): number {
  const wd = weekday(n);
  if (wd === 6) return n - 1;
  if (wd === 0) return n + 1;
  return n;
}

const holidayCache = new Map<number, string[]>();

/** ISO dates (ascending) of the NYSE's regular full-day closures in `year` under today's rules, weekend observance applied. */
export function nyseHolidays(year: number): string[] {
  if (!Number.isInteger(year) || year < 1900 || year > 9999) {
    throw new RangeError(`year out of range: ${year}`);
  }
  const cached = holidayCache.get(year);
  if (cached) return [...cached];

  const days: number[] = [];
  // New Year's Day: Sunday -> Monday; on a Saturday it is not observed (the Friday before ends the accounting year).
  const newYear = dayOf(year, 1, 1);
  if (weekday(newYear) !== 6) days.push(observed(newYear));
  days.push(nthWeekday(year, 1, 1, 3)); // Martin Luther King Jr. Day: third Monday of January
  days.push(nthWeekday(year, 2, 1, 3)); // Washington's Birthday: third Monday of February
  days.push(easterSunday(year) - 2); // Good Friday
  days.push(lastWeekday(year, 5, 1)); // Memorial Day: last Monday of May
  if (year >= 2022) days.push(observed(dayOf(year, 6, 19))); // Juneteenth
  days.push(observed(dayOf(year, 7, 4))); // Independence Day
  days.push(nthWeekday(year, 9, 1, 1)); // Labor Day: first Monday of September
  days.push(nthWeekday(year, 11, 4, 4)); // Thanksgiving: fourth Thursday of November
  days.push(observed(dayOf(year, 12, 25))); // Christmas Day

  const result = days.sort((a, b) => a - b).map(fromDayNumber);
  holidayCache.set(year, result);
  return [...result];
}

function isTradingDayNumber(n: number): boolean {
  const wd = weekday(n);
  if (wd === 0 || wd === 6) return false;
  const iso = fromDayNumber(n);
  return !nyseHolidays(Number(iso.slice(0, 4))).includes(iso);
}

/** True when the NYSE is open on this ISO date (a weekday that is not a regular holiday). */
export function isTradingDay(iso: string): boolean {
  return isTradingDayNumber(toDayNumber(iso));
}

/** The `count` trading days ending on or before `endIso`, ascending. */
export function tradingDaysEnding(endIso: string, count: number): string[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const out: string[] = [];
  let n = toDayNumber(endIso);
  while (out.length < count) {
    if (isTradingDayNumber(n)) out.push(fromDayNumber(n));
    n -= 1;
  }
  return out.reverse();
}

/** The date in New York at `ms`, as yyyy-mm-dd. */
export function newYorkDate(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}
