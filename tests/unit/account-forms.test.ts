import { describe, expect, it } from 'vitest';
import { failureOutcome, fieldMessagesId, OUTCOMES, outcomeId, outcomesFor, type AccountForm } from '../../src/lib/domain/accounts/account-forms';

describe('failureOutcome: Better Auth\'s failures as the form outcomes a person can act on', () => {
  it.each<[AccountForm, number, string | undefined, string]>([
    ['sign-in', 401, 'INVALID_EMAIL_OR_PASSWORD', 'invalid'],
    ['sign-in', 400, 'INVALID_EMAIL', 'invalid'],
    ['sign-in', 429, undefined, 'limited'],
    ['sign-in', 403, 'INVALID_ORIGIN', 'refused'],
    ['sign-in', 403, 'MISSING_OR_NULL_ORIGIN', 'refused'],
    ['sign-in', 404, undefined, 'unavailable'],
    ['sign-in', 500, undefined, 'failed'],
    ['sign-up', 400, 'PASSWORD_TOO_SHORT', 'short'],
    ['sign-up', 400, 'PASSWORD_TOO_LONG', 'long'],
    ['sign-up', 400, 'INVALID_EMAIL', 'email'],
    // Sign-up no longer says an address is taken (Better Auth answers it as a new one); were it to, nothing would tell.
    ['sign-up', 422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', 'failed'],
    ['change-password', 400, 'INVALID_PASSWORD', 'wrong'],
    ['change-password', 401, undefined, 'signed-out'],
    ['change-password', 400, 'PASSWORD_TOO_SHORT', 'short'],
    ['reset-password', 400, 'INVALID_TOKEN', 'expired'],
    ['magic-link', 404, undefined, 'unavailable'],
    ['upgrade', 404, undefined, 'unavailable'],
    ['delete-account', 400, 'INVALID_PASSWORD', 'wrong'],
  ])('%s, %i %s -> %s', (form, status, code, outcome) => {
    expect(failureOutcome(form, { status, code })).toBe(outcome);
    expect(OUTCOMES[form]).toHaveProperty(outcome);
  });
});

describe('outcome ids', () => {
  it('are unique across every form, so one fragment names one message', () => {
    const ids = (Object.keys(OUTCOMES) as AccountForm[]).flatMap((form) => Object.keys(OUTCOMES[form]).map((name) => `${form}-${name}`));
    expect(new Set(ids).size).toBe(ids.length);
    expect(outcomeId('sign-in', 'invalid')).toBe('sign-in-invalid');
  });

  it('group each field\'s messages under the id its input is described by', () => {
    expect(fieldMessagesId('sign-up', 'password')).toBe('sign-up-password-messages');
    expect(outcomesFor('sign-up', 'password').map((o) => o.id)).toEqual(['sign-up-short', 'sign-up-long']);
    expect(outcomesFor('sign-up', 'password')[0]!.outcome.text).toBe('Use at least 10 characters for your password.');
  });
});
