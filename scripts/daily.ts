/** The daily job's command line: `npm run daily [-- --force] [-- --verbose] [-- --accept GATE ...]`. */
import { parseArgs } from 'node:util';
import { config, ConfigError, ISLAND_FAULTS_IN_PRODUCTION, PROJECT_ROOT, siteUrlProblem } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { closingPricesSourceFor, fundamentalsSourceFor } from '../src/server/providers';
import { readUniverse } from '../src/storage/universe';
import { resolve } from 'node:path';
import type { TrackStore } from '../src/storage/track';
import { writeDeployRules } from '../src/server/deploy-rules';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';
import { parseGateNames } from '../src/lib/domain/gates';
import type { RunLog } from '../src/storage/run-log';
import type { AlertStore } from '../src/storage/alerts';
import { createDigestSender } from '../src/server/mail';

/** The accounts database's run log (the same one the server writes); without it the job still runs and says why. */
async function openRunLog(settings: ReturnType<typeof config>): Promise<{ log: RunLog; alerts: AlertStore; track: TrackStore; close(): Promise<void> } | null> {
  // node:sqlite's "experimental" notice would land in cron's failure mail on every run: this job's stderr is for refusals.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (!String(warning).includes('SQLite is an experimental feature')) emitWarning.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const { migrateOwnTables, openDatabase } = await import('../src/storage/db');
    const { RunLog } = await import('../src/storage/run-log');
    const { AlertStore } = await import('../src/storage/alerts');
    const { TrackStore } = await import('../src/storage/track');
    const database = openDatabase(settings.database);
    // A database `npm start` has set up needs only our own pending migrations: Better Auth is seconds of imports.
    if ((await database.db.introspection.getTables()).some((table) => table.name === 'user')) {
      await migrateOwnTables(database.db);
      return { log: new RunLog(database.db), alerts: new AlertStore(database.db), track: new TrackStore(database.db), close: () => database.close() };
    }
    await database.close();
    const { accountSettings, openAccounts } = await import('../src/server/accounts');
    const accounts = await openAccounts({ ...accountSettings(settings), log: () => undefined });
    return { log: new RunLog(accounts.database.db), alerts: new AlertStore(accounts.database.db), track: new TrackStore(accounts.database.db), close: () => accounts.close() };
  } catch (error) {
    console.error(`The run log is not written: the accounts database cannot be opened (${(error as Error).message}).`);
    return null;
  }
}

let runLog: Awaited<ReturnType<typeof openRunLog>> = null;
let digests: ReturnType<typeof createDigestSender> | null = null;
try {
  const { values } = parseArgs({
    options: { force: { type: 'boolean' }, verbose: { type: 'boolean' }, accept: { type: 'string', multiple: true } },
  });
  const accept = parseGateNames(values.accept ?? []);
  if ('problem' in accept) throw new DailyJobError(accept.problem);
  const settings = config();
  const problem = siteUrlProblem(settings);
  if (problem !== null && settings.production) throw new ConfigError([`${problem} It is required when NODE_ENV=production.`]);
  if (settings.islandFaults && settings.production) throw new ConfigError([ISLAND_FAULTS_IN_PRODUCTION]);
  if (problem !== null) console.warn(`Warning: ${problem}`);
  runLog = await openRunLog(settings);
  digests = createDigestSender({ ...settings.mail, siteUrl: settings.siteUrl });
  const options = {
    ...dailyConfig(settings),
    deployRules: (staging: string, build: { scriptHashes: readonly string[] }) => writeDeployRules(staging, { ...build, apiOrigin: settings.apiOrigin }),
    fundamentals: fundamentalsSourceFor(settings.polygon),
    force: values.force ?? false,
    verbose: values.verbose ?? false,
    accept: accept.gates,
    log: (line: string) => console.log(line),
    // On a terminal a redrawn line with bars and the time left; in a log one line per stage.
    progress: { tty: process.stdout.isTTY === true, columns: process.stdout.columns, write: (text: string) => process.stdout.write(text) },
    runLog: runLog === null ? undefined : { log: runLog.log, trigger: 'cli' as const },
    alerts: runLog === null ? undefined : { store: runLog.alerts, send: digests.send, siteUrl: settings.siteUrl },
    // The closes and the ledger live in the same database (issue 17); without it the pages show the ledger unpriced.
    track: runLog === null ? undefined : { store: runLog.track, source: closingPricesSourceFor(settings.polygon, await readUniverse(resolve(PROJECT_ROOT, settings.universeFile))) },
  };
  const summary = await runDaily(options);
  console.log(formatSummary(summary, options));
} catch (error) {
  if (error instanceof DailyJobError || error instanceof ConfigError) {
    console.error(error.message);
  } else if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\nusage: npm run daily [-- --force] [-- --verbose] [-- --accept GATE]`);
  } else {
    console.error(`The daily job failed: ${(error as Error).stack ?? error}`);
  }
  process.exitCode = 1;
}
digests?.close();
await runLog?.close();
