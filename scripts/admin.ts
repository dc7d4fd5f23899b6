/**
 * `npm run admin -- grant-pro EMAIL | revoke-pro EMAIL`: the shell's way to what /admin's Users panel does. Works on the
 * database the server uses (DATABASE_URL, else DATABASE_FILE), migrating it first like `npm start`.
 */
import { config as loadProcessConfig, ConfigError } from '../src/config';
import { accountSettings, openAccounts } from '../src/server/accounts';
import { GRANT_MESSAGES, grantPro, revokePro } from '../src/storage/plan-grants';

const USAGE = 'Usage: npm run admin -- grant-pro EMAIL | revoke-pro EMAIL';

async function main(argv: string[]): Promise<number> {
  const [command, email, ...rest] = argv;
  if ((command !== 'grant-pro' && command !== 'revoke-pro') || !email || rest.length > 0 || !email.includes('@')) {
    console.error(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadProcessConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    return 1;
  }
  const accounts = await openAccounts({ ...accountSettings(config), log: () => undefined });
  try {
    const outcome = command === 'grant-pro' ? await grantPro(accounts.database.db, email) : await revokePro(accounts.database.db, email);
    const message = GRANT_MESSAGES[outcome](email.trim().toLowerCase());
    if (outcome === 'unknown-email') {
      console.error(message);
      return 1;
    }
    console.log(message);
    return 0;
  } finally {
    await accounts.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
