/** How the archives page lists the accepted export files: newest report first, with their download addresses. */
import type { ArchivedFile } from './schemas';

/** The files newest first: by latest report date, then by archive time. */
export function archiveOrder(files: readonly ArchivedFile[]): ArchivedFile[] {
  const latest = (f: ArchivedFile) => [...f.reportDates].sort().at(-1) ?? '';
  return [...files].sort((a, b) => latest(b).localeCompare(latest(a)) || b.archivedAt.localeCompare(a.archivedAt));
}

/** The report date a file is titled by: its latest report date, or null when it has none. */
export function archiveDate(file: ArchivedFile): string | null {
  return [...file.reportDates].sort().at(-1) ?? null;
}

/** Spec section 7's download addresses: the raw file, the CSV of the signal rows, and the CSV of one sheet. */
export const downloadHref = {
  raw: (file: ArchivedFile) => `/api/download-excel/${file.id}`,
  csv: (file: ArchivedFile) => `/api/download-csv/${file.id}`,
  sheet: (file: ArchivedFile, sheetId: number) => `/api/download-csv/${file.id}?sheetId=${sheetId}`,
};

const uploadTime = new Intl.DateTimeFormat('en-US', {
  month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
});

/** The upload time of a file ('Nov 20, 2026, 8:02 AM UTC'), or 'N/A' when it is not a valid time. */
export function formatUploadTime(archivedAt: string): string {
  const date = new Date(archivedAt);
  return Number.isNaN(date.getTime()) ? 'N/A' : uploadTime.format(date);
}
