/** The daily job's command line: `npm run daily [-- --force] [-- --verbose]`. */
import { config, ConfigError } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';

const args = new Set(process.argv.slice(2));

try {
  const options = { ...dailyConfig(config()), force: args.has('--force'), verbose: args.has('--verbose'), log: (line: string) => console.log(line) };
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
