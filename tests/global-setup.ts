/**
 * Vitest's global setup: one PostgreSQL cluster for the whole run (the account tests run on it as well as on SQLite),
 * started before the first test file and stopped after the last, in vitest's main process, so a test file that fails
 * or times out cannot leave it running. The test files get its address with `inject('postgres')`.
 */
import type { TestProject } from 'vitest/node';
import { postgresBin } from '../scripts/test-setup';
import { type PostgresAddress, startPostgres } from './fixtures/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster, or null when PostgreSQL is not installed (the tests that need it then say how to install it). */
    postgres: PostgresAddress | null;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (postgresBin() === null) {
    project.provide('postgres', null);
    return () => undefined;
  }
  const cluster = await startPostgres();
  project.provide('postgres', cluster.address);
  return () => cluster.stop();
}
