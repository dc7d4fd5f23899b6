/** The daily job's command line: `npm run daily [-- --force] [-- --verbose] [-- --accept GATE ...]`. */
import { parseArgs } from 'node:util';
import { config, ConfigError } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';
import { parseGateNames } from '../src/lib/domain/gates';

try {
  const { values } = parseArgs({
    options: { force: { type: 'boolean' }, verbose: { type: 'boolean' }, accept: { type: 'string', multiple: true } },
  });
  const accept = parseGateNames(values.accept ?? []);
  if ('problem' in accept) throw new DailyJobError(accept.problem);
  const options = { ...dailyConfig(config()), force: values.force ?? false, verbose: values.verbose ?? false, accept: accept.gates, log: (line: string) => console.log(line) };
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
