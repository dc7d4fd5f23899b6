/**
 * The signed-in user's own alert rules and this browser's push subscription, as the stock page's Alerts panel and
 * /account show and change them.
 */
import { atom } from 'nanostores';
import { type AlertRulesAnswer, createAlertRule, deleteAlertRule, fetchAlertRules, pushPublicKey, removePushSubscription, savePushSubscription } from '../lib/client/alert-rules';
import { ApiError } from '../lib/client/http';

export type AlertRulesState =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; rules: AlertRulesAnswer['rules']; limit: number; message: string | null; field: string | null }
  | { status: 'failed'; message: string };

export const $alertRules = atom<AlertRulesState>({ status: 'idle' });

const UNREACHABLE = 'Your alert rules could not be reached. Check your connection and try again.';

function problemOf(error: unknown): { message: string; field: string | null } {
  if (error instanceof ApiError && error.body !== undefined) {
    const field = (error.body as { field?: unknown }).field;
    return { message: error.serverError ?? `The server refused it (${error.status}).`, field: typeof field === 'string' ? field : null };
  }
  return { message: UNREACHABLE, field: null };
}

/** Reads the rules (once; `again` reads them anew). */
export async function loadAlertRules(again = false): Promise<void> {
  if (!again && $alertRules.get().status !== 'idle') return;
  $alertRules.set({ status: 'loading' });
  try {
    const answer = await fetchAlertRules();
    $alertRules.set({ status: 'ready', rules: answer.rules, limit: answer.limit, message: null, field: null });
  } catch (error) {
    $alertRules.set({ status: 'failed', message: problemOf(error).message });
  }
}

/** Adds a rule; a refusal stays on the form with the field it names. True when it was added. */
export async function addAlertRule(rule: { ticker: string; kind: string; value: number }): Promise<boolean> {
  const before = $alertRules.get();
  try {
    const { rule: added, limit } = await createAlertRule(rule);
    const rules = before.status === 'ready' ? [...before.rules, added] : [added];
    $alertRules.set({ status: 'ready', rules, limit, message: `Rule added: ${added.text}.`, field: null });
    return true;
  } catch (error) {
    const problem = problemOf(error);
    if (before.status === 'ready') $alertRules.set({ ...before, message: `Error: ${problem.message}`, field: problem.field });
    else $alertRules.set({ status: 'failed', message: problem.message });
    return false;
  }
}

/** Deletes a rule. */
export async function removeAlertRule(id: string): Promise<void> {
  const before = $alertRules.get();
  if (before.status !== 'ready') return;
  try {
    await deleteAlertRule(id);
    $alertRules.set({ ...before, rules: before.rules.filter((rule) => rule.id !== id), message: 'Rule deleted.', field: null });
  } catch (error) {
    $alertRules.set({ ...before, message: `Error: ${problemOf(error).message}`, field: null });
  }
}

/** This browser's push state: unsupported, blocked by the user, off, or on. */
export type PushState = 'unsupported' | 'denied' | 'off' | 'on' | 'working';
export const $push = atom<PushState>('off');

function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** Reads whether this browser is subscribed. */
export async function loadPush(): Promise<void> {
  if (!pushSupported()) return $push.set('unsupported');
  if (Notification.permission === 'denied') return $push.set('denied');
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  $push.set(subscription ? 'on' : 'off');
}

/** Turns push on for this browser (asks for permission, subscribes, stores it) or off. Answers an error sentence or null. */
export async function setPush(on: boolean): Promise<string | null> {
  if (!pushSupported()) return 'This browser cannot receive push notifications.';
  $push.set('working');
  try {
    const registration = await navigator.serviceWorker.ready;
    if (!on) {
      const subscription = await registration.pushManager.getSubscription();
      if (subscription !== null) {
        await removePushSubscription(subscription.endpoint).catch(() => undefined);
        await subscription.unsubscribe();
      }
      $push.set('off');
      return null;
    }
    if ((await Notification.requestPermission()) !== 'granted') {
      $push.set(Notification.permission === 'denied' ? 'denied' : 'off');
      return 'Notifications are not allowed for this site: allow them in the browser\'s site settings.';
    }
    const key = await pushPublicKey();
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    await savePushSubscription({ endpoint: json.endpoint, keys: json.keys });
    $push.set('on');
    return null;
  } catch (error) {
    $push.set('off');
    return problemOf(error).message;
  }
}
