/** The archive's command line: `npm run archive -- list` and `npm run archive -- withdraw FILE` (docs/limits-and-gates.md). */
// First, before any module that opens node:sqlite.
import './sqlite-notice';
import { config, ConfigError } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';
import { readArchiveIndex } from '../src/storage/archive';
import { jobTrackStep, openRunLog } from './job-database';

const USAGE = `usage: npm run archive -- list
       npm run archive -- withdraw FILE    (FILE: an id or a file name from the list; the site is rebuilt from the rest)`;

const [command, file, ...rest] = process.argv.slice(2);

try {
  const processConfig = config();
  const settings = dailyConfig(processConfig);
  if (command === 'list' && file === undefined) {
    const { files, withdrawn } = await readArchiveIndex(settings.archiveDir);
    console.log(`${files.length} archived file(s) in ${settings.archiveDir}, oldest first:`);
    for (const f of files) console.log(`  ${f.id}  ${f.fileName}  ${f.reportDates[0] ?? ''}..${f.reportDates.at(-1) ?? ''}  ${f.rowCount} rows  archived ${f.archivedAt}`);
    for (const w of withdrawn) console.log(`  withdrawn ${w.withdrawnAt}: ${w.id}  ${w.fileName}`);
  } else if (command === 'withdraw' && file !== undefined && rest.length === 0) {
    // The same track step as `npm run daily`: the withdrawn reports' ledger rows go, and the build is the one it would make.
    const database = await openRunLog(processConfig);
    try {
      const track = database === null ? undefined : await jobTrackStep(processConfig, database.track);
      const options = { ...settings, withdraw: file, track, log: (line: string) => console.log(line) };
      console.log(formatSummary(await runDaily(options), options));
    } finally {
      await database?.close();
    }
  } else {
    console.error(USAGE);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof DailyJobError || error instanceof ConfigError ? error.message : `The archive command failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
}
