/** The own-rules and push step of the daily job, as `npm start` and `npm run daily` build it from the Config. */
import type { Kysely } from 'kysely';
import type { Config } from '../src/config';
import type { PushStep } from '../src/ingest/push';
import { createPushSender, pushSettings, pushSetup } from '../src/server/push';
import { RuleStore } from '../src/storage/alert-rules';
import type { Database } from '../src/storage/db';
import { PushStore } from '../src/storage/push';

/** The step, and the line that says whether push is on (logged at start-up). */
export function pushStep(config: Config, db: Kysely<Database>): { step: PushStep; note: string; close(): void } {
  const setup = pushSetup(pushSettings(config));
  const sender = setup.keys === null ? null : createPushSender({ keys: setup.keys, production: config.production });
  return {
    step: { rules: new RuleStore(db), push: new PushStore(db), send: sender === null ? null : (subscription, message) => sender.send(subscription, message) },
    note: setup.note,
    close: () => sender?.close(),
  };
}
