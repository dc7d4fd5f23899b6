/**
 * The browser's calls for own alert rules (/api/alert-rules) and Web Push (/api/push): typed by the server's routes.
 * A refused rule throws ApiError, whose body names the field to fix.
 */
import { answer, api, type AnswerOf } from './api-client';

/** GET /api/alert-rules: the account's rules (each with its text) and the plan's limit. */
export type AlertRulesAnswer = AnswerOf<typeof api['alert-rules']['$get']>;

export function fetchAlertRules(): Promise<AlertRulesAnswer> {
  return answer(api['alert-rules'].$get());
}

export function createAlertRule(rule: { ticker: string; kind: string; value: number }) {
  return answer(api['alert-rules'].$post({ json: rule }));
}

export async function deleteAlertRule(id: string): Promise<void> {
  const response = await api['alert-rules'][':id'].$delete({ param: { id } });
  if (!response.ok) await answer(Promise.resolve(response));
}

/** The server's application key for PushManager.subscribe. */
export async function pushPublicKey(): Promise<string> {
  return (await answer(api.push['public-key'].$get())).publicKey;
}

/** Stores this browser's subscription for the signed-in user. */
export function savePushSubscription(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  return answer(api.push.subscriptions.$post({ json: subscription }));
}

/** Forgets this browser's subscription. */
export function removePushSubscription(endpoint: string) {
  return answer(api.push.subscriptions.$delete({ json: { endpoint } }));
}
