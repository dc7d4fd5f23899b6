/** The daily job's command line: `npm run daily [-- --force] [-- --verbose]`. */
import { config, ConfigError, ISLAND_FAULTS_IN_PRODUCTION, siteUrlProblem } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { fundamentalsSourceFor } from '../src/server/providers';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';

const args = new Set(process.argv.slice(2));

try {
  const settings = config();
  const problem = siteUrlProblem(settings);
  if (problem !== null && settings.production) throw new ConfigError([`${problem} It is required when NODE_ENV=production.`]);
  if (settings.islandFaults && settings.production) throw new ConfigError([ISLAND_FAULTS_IN_PRODUCTION]);
  if (problem !== null) console.warn(`Warning: ${problem}`);
  const options = { ...dailyConfig(settings), fundamentals: fundamentalsSourceFor(settings.polygon), force: args.has('--force'), verbose: args.has('--verbose'), log: (line: string) => console.log(line) };
  const summary = await runDaily(options);
  console.log(formatSummary(summary, options));
} catch (error) {
  if (error instanceof DailyJobError || error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(`The daily job failed: ${(error as Error).stack ?? error}`);
  }
  process.exitCode = 1;
}
