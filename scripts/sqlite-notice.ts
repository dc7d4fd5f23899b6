/**
 * Imported first by the daily job: node:sqlite's "experimental" notice would land in cron's failure mail on every run,
 * and the job's stderr is for refusals. Any other warning still prints.
 */
const emitWarning = process.emitWarning;
process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
  if (!String(warning).includes('SQLite is an experimental feature')) emitWarning.call(process, warning, ...rest);
}) as typeof process.emitWarning;
