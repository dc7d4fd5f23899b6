/** The daily job's command line: `npm run daily [-- --force] [-- --verbose] [-- --accept GATE ...]`. */
// First, before any module that opens node:sqlite.
import './sqlite-notice';
import { parseArgs } from 'node:util';
import { config, ConfigError, ISLAND_FAULTS_IN_PRODUCTION, siteUrlProblem } from '../src/config';
import { dailyConfig, runDaily } from '../src/ingest/daily';
import { fundamentalsSourceFor } from '../src/server/providers';
import { writeDeployRules } from '../src/server/deploy-rules';
import { DailyJobError } from '../src/ingest/error';
import { formatSummary } from '../src/ingest/summary';
import { parseGateNames } from '../src/lib/domain/operator/gates';
import { createDigestSender } from '../src/server/mail';
import { jobTrackStep, openRunLog } from './job-database';
import type { pushStep } from './push-step';

let runLog: Awaited<ReturnType<typeof openRunLog>> = null;
let digests: ReturnType<typeof createDigestSender> | null = null;
let push: ReturnType<typeof pushStep> | null = null;
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
  push = runLog === null ? null : (await import('./push-step')).pushStep(settings, runLog.alerts.db);
  if (push !== null) console.log(push.note);
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
    alerts: runLog === null ? undefined : { store: runLog.alerts, send: digests.send, siteUrl: settings.siteUrl, push: push?.step },
    // The closes and the ledger live in the same database; without it the pages show the ledger unpriced.
    track: runLog === null ? undefined : await jobTrackStep(settings, runLog.track),
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
push?.close();
await runLog?.close();
