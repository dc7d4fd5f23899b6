/**
 * The plain-HTML account forms of /login and /account: what each form posts, which Better Auth
 * endpoint answers it, and every outcome a person can be sent back to. The outcome travels as the URL fragment
 * `#<form>-<outcome>`; the static page holds each message in an element of that id, shown by CSS `:target`, so it
 * shows before (and without) any script. Read by the pages and by the server's form routes.
 */

/** Spec section 4: passwords of at least 10 characters. */
export const MIN_PASSWORD_LENGTH = 10;
/** Better Auth's default longest password. */
export const MAX_PASSWORD_LENGTH = 128;

/** The forms, by the path segment they post to under /api/forms. */
export type AccountForm =
  | 'sign-in'
  | 'sign-up'
  | 'magic-link'
  | 'forgot-password'
  | 'reset-password'
  | 'change-password'
  | 'delete-account'
  | 'billing'
  | 'upgrade';

/** Which field an outcome belongs to (its message is tied to that input by aria-describedby), or the whole form. */
export type OutcomeField = 'email' | 'password' | 'currentPassword' | 'newPassword' | 'confirm' | 'form';

export interface Outcome {
  field: OutcomeField;
  /** True for a success note, false for an error. */
  ok: boolean;
  text: string;
}

const RATE_LIMITED: Outcome = { field: 'form', ok: false, text: 'Too many attempts from here. Wait a minute, then try again.' };
/** A form from an origin the server does not trust: a site set up for another address (SITE_URL), which reloading cannot fix. */
const REFUSED: Outcome = {
  field: 'form',
  ok: false,
  text: 'The server refused this form because this site is set up for a different address than the one in your address bar. Reloading will not help: open the site at its usual address, or tell its operator to set SITE_URL to this address.',
};
const UNAVAILABLE: Outcome = {
  field: 'form',
  ok: false,
  text: 'Accounts are not set up on this server yet. Try again later, or write to the site operator.',
};
const FAILED: Outcome = { field: 'form', ok: false, text: 'Something went wrong on our side. Try again in a minute.' };
const EMAIL_MISSING: Outcome = { field: 'email', ok: false, text: 'Enter your email address, like name@example.com.' };
const SIGNED_OUT: Outcome = { field: 'form', ok: false, text: 'Your session has ended. Sign in again, then repeat this step.' };
const PASSWORD_SHORT: Outcome = {
  field: 'password',
  ok: false,
  text: `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`,
};

/** The outcomes any auth form can meet: rate-limited, refused by the origin check, accounts off, or an unexpected failure. */
const ANSWERS_OF_EVERY_FORM = { limited: RATE_LIMITED, refused: REFUSED, unavailable: UNAVAILABLE, failed: FAILED };

/** Every outcome of every form, keyed by form then outcome name. */
export const OUTCOMES = {
  'sign-in': {
    invalid: { field: 'password', ok: false, text: 'That email and password do not match an account. Check both, or email yourself a sign-in link.' },
    missing: { field: 'email', ok: false, text: 'Enter your email address and your password.' },
    ...ANSWERS_OF_EVERY_FORM,
  },
  'sign-up': {
    email: { field: 'email', ok: false, text: 'That does not look like an email address. Enter one like name@example.com.' },
    sent: {
      field: 'form',
      ok: true,
      text: 'Check your inbox to confirm your address: the link we sent signs you in (within 24 hours). If the address already has an account, we emailed its owner how to sign in instead.',
    },
    short: PASSWORD_SHORT,
    long: { field: 'password', ok: false, text: `Use at most ${MAX_PASSWORD_LENGTH} characters for your password.` },
    ...ANSWERS_OF_EVERY_FORM,
  },
  'magic-link': {
    sent: { field: 'form', ok: true, text: 'If that address can sign in, a link is on its way. Open it within 10 minutes; it works once.' },
    email: EMAIL_MISSING,
    ...ANSWERS_OF_EVERY_FORM,
    unavailable: { field: 'form', ok: false, text: 'Email sign-in links are not set up on this server. Sign in with your password instead.' },
  },
  'forgot-password': {
    sent: { field: 'form', ok: true, text: 'If that address has an account, a reset link is on its way. Open it within an hour.' },
    email: EMAIL_MISSING,
    ...ANSWERS_OF_EVERY_FORM,
  },
  'reset-password': {
    ready: { field: 'form', ok: true, text: 'Choose a new password for your account.' },
    done: { field: 'form', ok: true, text: 'Your password is changed. Sign in with the new one.' },
    short: PASSWORD_SHORT,
    expired: { field: 'form', ok: false, text: 'That reset link has expired or was already used. Ask for a new one below.' },
    ...ANSWERS_OF_EVERY_FORM,
  },
  'change-password': {
    done: { field: 'form', ok: true, text: 'Your password is changed. Other devices were signed out.' },
    wrong: { field: 'currentPassword', ok: false, text: 'Your current password is not right. Type it again.' },
    short: { field: 'newPassword', ok: false, text: `Use at least ${MIN_PASSWORD_LENGTH} characters for your new password.` },
    'no-password': {
      field: 'form',
      ok: false,
      text: 'Your account has no password: it signs in with emailed links. To set one, use "Forgotten your password?" on the sign-in page: its link lets you choose a password.',
    },
    'signed-out': SIGNED_OUT,
    ...ANSWERS_OF_EVERY_FORM,
  },
  'delete-account': {
    confirm: { field: 'confirm', ok: false, text: 'Type DELETE in capitals to confirm that the account should go.' },
    wrong: { field: 'password', ok: false, text: 'Your password is not right, or, without one, your sign-in is older than 10 minutes. Type it again, or sign in again first.' },
    'signed-out': SIGNED_OUT,
    ...ANSWERS_OF_EVERY_FORM,
  },
  billing: {
    'signed-out': SIGNED_OUT,
    none: { field: 'form', ok: false, text: 'You have no paid subscription to manage. Upgrade to Pro first.' },
    unavailable: {
      field: 'form',
      ok: false,
      text: 'Online billing is not set up on this server. Write to the site operator to change or cancel Pro.',
    },
    refused: REFUSED,
    failed: FAILED,
  },
  upgrade: {
    'signed-out': SIGNED_OUT,
    unavailable: {
      field: 'form',
      ok: false,
      text: 'Online payment is not set up on this server. Write to the site operator: they can turn Pro on for your account.',
    },
    refused: REFUSED,
    failed: FAILED,
  },
} as const satisfies Record<AccountForm, Record<string, Outcome>>;

export type OutcomeOf<F extends AccountForm> = keyof (typeof OUTCOMES)[F] & string;

/** The element id (and URL fragment) of one outcome of one form. */
export function outcomeId<F extends AccountForm>(form: F, outcome: OutcomeOf<F>): string {
  return `${form}-${outcome}`;
}

/** The id of the element holding a field's messages: the input's aria-describedby. */
export function fieldMessagesId(form: AccountForm, field: OutcomeField): string {
  return `${form}-${field}-messages`;
}

/** One form's outcomes for one field, for rendering. */
export function outcomesFor(form: AccountForm, field: OutcomeField): { id: string; outcome: Outcome }[] {
  return Object.entries(OUTCOMES[form] as Record<string, Outcome>)
    .filter(([, outcome]) => outcome.field === field)
    .map(([name, outcome]) => ({ id: `${form}-${name}`, outcome }));
}

/** The answer of Better Auth's endpoints on failure: a status and, usually, a JSON body with a code. */
export interface AuthFailure {
  status: number;
  code?: string;
}

/**
 * Turns a failed Better Auth answer into the outcome the form shows. Codes are Better Auth's (BASE_ERROR_CODES);
 * a 404 means the endpoint is not configured on this server (no magic-link plugin, no Stripe).
 */
export function failureOutcome(form: AccountForm, failure: AuthFailure): string {
  const { status, code = '' } = failure;
  const has = (name: string) => name in OUTCOMES[form];
  if (status === 429 && has('limited')) return 'limited';
  if (/ORIGIN|CSRF/.test(code) && has('refused')) return 'refused';
  if (status === 404 || status === 501) return 'unavailable';
  if (code === 'PASSWORD_TOO_SHORT' && has('short')) return 'short';
  if (code === 'PASSWORD_TOO_LONG' && has('long')) return 'long';
  if (code === 'INVALID_EMAIL' && has('email')) return 'email';
  if (code === 'INVALID_PASSWORD' && has('wrong')) return 'wrong';
  if (code === 'INVALID_TOKEN' && has('expired')) return 'expired';
  if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND' && has('no-password')) return 'no-password';
  if (form === 'sign-in' && (status === 400 || status === 401)) return 'invalid';
  if (status === 401 && has('signed-out')) return 'signed-out';
  if (status === 403 && has('refused')) return 'refused';
  if (status === 400 && has('email') && /EMAIL/.test(code)) return 'email';
  return 'failed';
}
