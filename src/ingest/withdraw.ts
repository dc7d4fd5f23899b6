/** `npm run archive -- withdraw FILE`: which archived file the operator named, and the archive without it. */
import type { ArchivedFile } from '../lib/domain/report/schemas';
import { DailyJobError } from './error';

/** A file this run withdraws from the archive, and when. */
export interface Withdrawal {
  file: ArchivedFile;
  withdrawnAt: string;
}

/** The archive the run builds from: all of it, or without the file `key` names (an id or a file name). */
export function withdrawal(archived: ArchivedFile[], key: string | undefined, now: number): { archived: ArchivedFile[]; withdraw: Withdrawal | null } {
  if (key === undefined) return { archived, withdraw: null };
  const file = archivedFile(archived, key);
  const rest = archived.filter((f) => f.id !== file.id);
  if (rest.length === 0) {
    throw new DailyJobError(`Withdrawing ${key} would leave the archive empty: there would be nothing to publish. Add the right export first, then withdraw this one.`);
  }
  return { archived: rest, withdraw: { file, withdrawnAt: new Date(now).toISOString() } };
}

/** The archived file an operator named, by id or file name; a name two files share must be given as an id. */
function archivedFile(files: readonly ArchivedFile[], key: string): ArchivedFile {
  const byId = files.find((file) => file.id === key);
  if (byId) return byId;
  const byName = files.filter((file) => file.fileName === key);
  if (byName.length === 1) return byName[0]!;
  const listing = (list: readonly ArchivedFile[]) => list.map((file) => `  ${file.id}  ${file.fileName}  ${file.reportDates.at(0) ?? ''}..${file.reportDates.at(-1) ?? ''}`);
  if (byName.length > 1) throw new DailyJobError([`${byName.length} archived files are named ${key}; withdraw one by its id:`, ...listing(byName)].join('\n'));
  throw new DailyJobError([`No archived file has the id or name "${key}". The newest archived files are:`, ...listing(files.slice(-10)), '"npm run archive -- list" lists them all.'].join('\n'));
}
