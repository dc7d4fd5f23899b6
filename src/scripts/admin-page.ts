/**
 * /admin's script: fills the publishing status, the run log, the user counts and the company coverage from
 * /api/admin, and runs the page's actions (find a user, grant or revoke Pro, run the company sync, create and
 * revoke API tokens). Each section says what went wrong in its own status line.
 */
import type { UserOverview } from '../lib/domain/operator/operator';
import { operatorApi as api } from '../lib/client/api-client';
import { operatorAnswer } from '../lib/client/operator';
import { element } from './dom';
import { failed, localTime, part } from './operator-page';

const TRIGGERS: Record<string, string> = { cli: 'Command line (cron)', upload: 'Upload', token: 'API token', start: 'npm start', ai: 'AI number check' };
const OUTCOMES: Record<string, string> = { running: 'Running', published: 'Published', 'up-to-date': 'Up to date', refused: 'Refused', failed: 'Failed' };
const SYNC_PAUSE_S = 60;

const set = (field: string, text: string) => {
  part(`[data-field="${field}"]`).textContent = text;
};

/** "3 h 5 min ago" from an age in milliseconds. */
function age(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function duration(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function listCell(lines: readonly string[]): HTMLTableCellElement {
  const cell = element('td');
  if (lines.length === 0) cell.textContent = '-';
  else {
    const list = element('ul');
    list.append(...lines.map((line) => element('li', line)));
    cell.append(list);
  }
  return cell;
}

/** Publishing status: the report, the build, the provider and its budget, the publish queue. */
async function startStatus(): Promise<void> {
  const s = await operatorAnswer(api.admin.status.$get());
  set('reportDate', s.reportDate === null ? 'Nothing is published yet: run the daily job or upload an export.' : `${s.reportDate} (${s.reportDates} report dates)`);
  set('builtAt', s.builtAt === null ? '-' : `${localTime(s.builtAt)} (${age(Date.now() - Date.parse(s.builtAt))})`);
  set('tickers', String(s.tickers));
  const last = s.provider.lastCallOk === null ? 'no call yet' : s.provider.lastCallOk ? 'last call answered' : `last call failed: ${s.provider.lastError ?? 'unknown error'}`;
  set('provider', `${s.provider.name === 'polygon' ? 'Polygon' : 'Demo (offline, no key)'}, ${last}`);
  set('budget', s.provider.budgetPerMinute === null ? 'No limit' : `${s.provider.budgetRemaining ?? 0} of ${s.provider.budgetPerMinute} calls left this minute`);
  set('queue', s.queue.running ? `A publish is running; ${s.queue.waiting} waiting` : 'Idle');
}

/** The run log's table. */
async function startRuns(): Promise<void> {
  const { runs } = await operatorAnswer(api.admin.runs.$get());
  const rows = runs.map((run) => {
    const row = element('tr');
    const notes = Object.entries(run.notes).flatMap(([name, lines]) => lines.map((line) => `${name}: ${line}`));
    row.append(
      element('td', localTime(run.startedAt)),
      element('td', duration(run.durationMs)),
      element('td', TRIGGERS[run.trigger] ?? run.trigger),
      element('td', OUTCOMES[run.outcome] ?? run.outcome),
      element('td', run.reportDate ?? '-'),
      listCell(run.files),
      listCell([...run.warnings, ...notes]),
      listCell(run.messages),
    );
    return row;
  });
  const body = part('[data-run-rows]');
  if (rows.length === 0) {
    const empty = element('tr');
    empty.append(element('td', 'No daily job has run since the run log began.', { colspan: '8' }));
    body.replaceChildren(empty);
  } else body.replaceChildren(...rows);
}

/** Users: the counts, finding an account by email, granting and revoking Pro. */
function startUsers(): Promise<void> {
  const userBox = part('[data-user]');
  const userStatus = part('[data-user-status]');
  let shownEmail = '';

  function showUser(user: UserOverview | null, searched: string): void {
    if (user === null) {
      userBox.hidden = true;
      userStatus.textContent = `No account has the email ${searched}.`;
      return;
    }
    shownEmail = user.email;
    set('userEmail', user.email);
    const sources = [user.grantedPro ? 'granted by an operator' : '', user.subscribed ? 'a Stripe subscription' : ''].filter(Boolean).join(' and ');
    set('userPlan', user.plan === 'pro' ? `Pro (${sources})` : 'Free');
    set('userCreated', localTime(user.createdAt));
    set('userSignIn', localTime(user.lastSignInAt));
    part<HTMLButtonElement>('[data-grant]').hidden = user.grantedPro;
    part<HTMLButtonElement>('[data-revoke]').hidden = !user.grantedPro;
    userBox.hidden = false;
  }

  async function loadUsers(email?: string): Promise<void> {
    const answer = await operatorAnswer(api.admin.users.$get({ query: email ? { email } : {} }));
    set('usersTotal', String(answer.counts.total));
    set('usersPro', String(answer.counts.pro));
    set('usersRecent', String(answer.counts.signedInLately));
    if (email) showUser(answer.user, email);
  }

  part<HTMLFormElement>('[data-user-search]').addEventListener('submit', (event) => {
    event.preventDefault();
    userStatus.textContent = '';
    loadUsers(part<HTMLInputElement>('#user-email').value.trim()).catch(failed(userStatus));
  });
  for (const [selector, pro] of [['[data-grant]', true], ['[data-revoke]', false]] as const) {
    part(selector).addEventListener('click', async () => {
      try {
        const answer = await operatorAnswer(api.admin.users.pro.$post({ json: { email: shownEmail, pro } }));
        userStatus.textContent = answer.message;
        showUser(answer.user, shownEmail);
        await loadUsers();
      } catch (error) {
        failed(userStatus)(error);
      }
    });
  }
  return loadUsers();
}

/** Company information: the store's coverage, and the sync that runs in rounds until it is done or stopped. */
function startCompanySync(): Promise<void> {
  const syncStatus = part('[data-sync-status]');
  const syncButton = part<HTMLButtonElement>('[data-sync]');
  const stopButton = part<HTMLButtonElement>('[data-sync-stop]');
  let stopped = false;

  async function loadCoverage(): Promise<void> {
    const c = await operatorAnswer(api.admin['company-info'].$get());
    part('[data-company-coverage]').textContent =
      `${c.stored} of the latest report's ${c.tickers} companies are in the store: ${c.withDescription} with a description, ${c.withWebsite} with a website, ${c.withLogo} with a logo.` +
      (c.provider === 'demo' ? ' The demo provider has no company information: set POLYGON_API_KEY to sync.' : '');
  }

  syncButton.addEventListener('click', async () => {
    stopped = false;
    syncButton.disabled = true;
    stopButton.hidden = false;
    try {
      for (;;) {
        syncStatus.textContent = 'Syncing company information...';
        const report = await operatorAnswer(api.polygon['sync-company-info'].$post({ query: { skipExisting: '' } }));
        await loadCoverage();
        syncStatus.textContent = report.message;
        if (report.done || stopped) break;
        for (let left = SYNC_PAUSE_S; left > 0 && !stopped; left -= 1) {
          syncStatus.textContent = `${report.message} Resuming in ${left} s (${report.remaining} to go).`;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        if (stopped) break;
      }
    } catch (error) {
      failed(syncStatus)(error);
    } finally {
      syncButton.disabled = false;
      stopButton.hidden = true;
    }
  });
  stopButton.addEventListener('click', () => {
    stopped = true;
    syncStatus.textContent = 'Stopped: run the sync again to resume where it left off.';
  });
  return loadCoverage();
}

/** API tokens: the list with a revoke button each, and the form that creates one (shown once, with a curl line). */
function startTokens(): Promise<void> {
  const tokenStatus = part('[data-token-status]');

  async function loadTokens(): Promise<void> {
    const { tokens } = await operatorAnswer(api.admin.tokens.$get());
    const rows = tokens.map((token) => {
      const row = element('tr');
      const action = element('td');
      if (token.revokedAt === null) {
        const revoke = element('button', 'Revoke', { type: 'button', class: 'btn btn-danger', 'aria-label': `Revoke the token of ${token.label}` });
        revoke.addEventListener('click', async () => {
          try {
            await operatorAnswer(api.admin.tokens[':id'].revoke.$post({ param: { id: encodeURIComponent(token.id) } }));
            tokenStatus.textContent = `The token of ${token.label} is revoked: it no longer publishes.`;
            await loadTokens();
          } catch (error) {
            failed(tokenStatus)(error);
          }
        });
        action.append(revoke);
      }
      row.append(
        element('td', token.label),
        element('td', `${localTime(token.createdAt)} by ${token.createdBy}`),
        element('td', token.lastUsedAt === null ? 'Never' : localTime(token.lastUsedAt)),
        element('td', token.revokedAt === null ? 'Live' : `Revoked ${localTime(token.revokedAt)}`),
        action,
      );
      return row;
    });
    part('[data-token-rows]').replaceChildren(...rows);
  }

  part<HTMLFormElement>('[data-token-form]').addEventListener('submit', async (event) => {
    event.preventDefault();
    const label = part<HTMLInputElement>('#token-label');
    try {
      const { token } = await operatorAnswer(api.admin.tokens.$post({ json: { label: label.value } }));
      part('[data-token-text]').textContent = token;
      part('[data-token-curl]').textContent = `curl -fsS -H "Authorization: Bearer ${token}" \\\n  -F "files=@signals.xlsx" "${location.origin}/api/admin/exports?wait=1"`;
      part('[data-new-token]').hidden = false;
      tokenStatus.textContent = `Token created for ${label.value}.`;
      label.value = '';
      await loadTokens();
    } catch (error) {
      failed(tokenStatus)(error);
    }
  });
  return loadTokens();
}

/** Starts the page: each section wires its actions and loads; a first load that fails says so in the page's status line. */
export function startAdminPage(): void {
  const pageStatus = part('[data-admin-status]');
  Promise.all([startStatus(), startRuns(), startUsers(), startCompanySync(), startTokens()]).catch(failed(pageStatus));
}
