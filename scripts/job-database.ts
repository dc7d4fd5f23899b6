/** The accounts database as the command-line jobs (`npm run daily`, `npm run archive`) open it, and the track step on it. */
import './sqlite-notice';
import { resolve } from 'node:path';
import { type Config, PROJECT_ROOT } from '../src/config';
import type { TrackStep } from '../src/ingest/track';
import { closingPricesSourceFor } from '../src/server/providers';
import type { AlertStore } from '../src/storage/alerts';
import type { RunLog } from '../src/storage/run-log';
import type { TrackStore } from '../src/storage/track';
import { readUniverse } from '../src/storage/universe';

/** The accounts database's run log (the same one the server writes); without it the job still runs and says why. */
export async function openRunLog(settings: Config): Promise<{ log: RunLog; alerts: AlertStore; track: TrackStore; close(): Promise<void> } | null> {
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


/** The track step of a job: the closes and the ledger in the accounts database, the closes from the job's provider. */
export async function jobTrackStep(settings: Config, store: TrackStore): Promise<TrackStep> {
  return {
    store,
    source: closingPricesSourceFor(settings.polygon, await readUniverse(resolve(PROJECT_ROOT, settings.universeFile))),
    benchmarkTicker: settings.trackRecord.benchmarkTicker,
    costBps: settings.trackRecord.costBps,
  };
}
