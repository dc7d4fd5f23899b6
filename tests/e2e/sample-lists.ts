/**
 * The expected lists, computed from the sample exports independently of src/lib/domain/signals/lists.ts (the e2e specs'
 * reference): DESIGN.md "Lists" with D the latest report and "qualified" meaning |C-Score| >= 65, over the last 5 reports.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import readExcelFile from 'read-excel-file/node';

const DIR = 'data/sample-exports';
type Report = { date: string; scores: Map<string, number> };

async function readReport(file: string): Promise<Report> {
  const path = join(DIR, file);
  let rows: unknown[][];
  if (file.endsWith('.csv')) {
    rows = parse(readFileSync(path, 'utf8'), { bom: true }) as string[][];
  } else {
    const sheets = await readExcelFile(path);
    rows = (sheets.find((s) => /signal/i.test(s.sheet)) ?? sheets[0]!).data as unknown[][];
  }
  const header = (rows[0] as string[]).map((h) => String(h).toLowerCase());
  const t = header.indexOf('ticker');
  const c = header.indexOf('c-score');
  const scores = new Map<string, number>();
  for (const row of rows.slice(1)) scores.set(String(row[t]).trim().toUpperCase(), Number(row[c]));
  return { date: /(\d{4}-\d{2}-\d{2})/.exec(file)![1]!, scores };
}

const qualified = (s: number | undefined) => s !== undefined && Math.abs(s) >= 65;
const direction = (s: number) => (s >= 65 ? 'Bullish' : s <= -65 ? 'Bearish' : 'Neutral');

/** The lists of DESIGN.md "Lists" and the latest report's scores, from the sample exports. */
export async function expected() {
  const files = readdirSync(DIR).filter((f) => /\.(csv|xlsx)$/.test(f)).sort();
  // The last 6 reports: D, the 4 before it (the 5-report window), and one more to know where a streak began.
  const reports = await Promise.all(files.slice(-6).map(readReport));
  const D = reports.at(-1)!;
  const window = reports.slice(-5);
  const all = [...D.scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
  const current = [...D.scores].filter(([, s]) => qualified(s)).map(([t]) => t);
  const newToday = current.filter((t) => !qualified(reports.at(-2)!.scores.get(t)));
  // Still qualified and became so within the window: not qualified on every one of the 6 reports.
  const recent = current.filter((t) => !reports.every((r) => qualified(r.scores.get(t))));
  const events = { exits: new Set<string>(), reversals: new Set<string>() };
  for (const t of D.scores.keys()) {
    let last: string | null = null;
    window.forEach((r, i) => {
      const s = r.scores.get(t);
      if (s === undefined) return;
      const prev = i > 0 ? window[i - 1]!.scores.get(t) : undefined;
      if (prev !== undefined && qualified(prev) && !qualified(s)) events.exits.add(`${t}|${direction(prev)}|Neutral|${r.date}`);
      if (qualified(s)) {
        if (last && last !== direction(s)) events.reversals.add(`${t}|${last}|${direction(s)}|${r.date}`);
        last = direction(s);
      }
    });
  }
  return { all, current, newToday, recent, events, latest: D.scores, date: D.date };
}

