/** The limits section's child process: the daily job's intake (pull, size checks, parse, validate) on one folder, timed. */
import { acceptNewFiles } from '../../src/ingest/intake';
import { DailyJobError } from '../../src/ingest/error';

const [source, archive] = process.argv.slice(2);
const started = performance.now();
try {
  const intake = await acceptNewFiles(archive!, source!, () => undefined);
  const rows = intake.added.reduce((sum, file) => sum + file.scores.rows, 0);
  console.log(JSON.stringify({ outcome: 'accepted', rows, seconds: (performance.now() - started) / 1000 }));
} catch (error) {
  if (!(error instanceof DailyJobError)) throw error;
  console.log(JSON.stringify({ outcome: 'refused', message: error.message.split('\n')[1]?.trim(), seconds: (performance.now() - started) / 1000 }));
}
