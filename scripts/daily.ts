/** The daily job's command line: `npm run daily [-- --force] [-- --verbose]`. */
import { configFromEnv, DailyJobError, formatSummary, runDaily } from '../src/ingest/daily';

const args = new Set(process.argv.slice(2));
const config = { ...configFromEnv(), force: args.has('--force'), verbose: args.has('--verbose'), log: (line: string) => console.log(line) };

try {
  const summary = await runDaily(config);
  console.log(formatSummary(summary, config));
} catch (error) {
  if (error instanceof DailyJobError) {
    console.error(error.message);
  } else {
    console.error(`The daily job failed: ${(error as Error).stack ?? error}`);
  }
  process.exitCode = 1;
}
