/**
 * The session contract: `sessionUser(deps)` sets `c.var.user` from Better Auth's signed session cookie
 * without a Better Auth `getSession` round trip: the cookie's HMAC-SHA256 signature is checked with the secret
 * (node:crypto, a few microseconds), then one query by the session table's unique `token` index reads the session,
 * its user, an operator grant and (with Stripe) an active or trialing subscription. No cache: a signed-out or
 * revoked session is refused on the very next request. The operator role needs the ADMIN_EMAILS address confirmed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { CompiledQuery, sql } from 'kysely';
import { holdsOperatorRole } from '../../lib/domain/operator/operator';
import { type AppDatabase, asBoolean, asDate } from '../../storage/db';

/** Who is signed in. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  /** The owner proved the address (the confirmation link, or an emailed sign-in link). */
  emailVerified: boolean;
  isPremium: boolean;
  /** ADMIN_EMAILS lists the address and it is confirmed. */
  isOperator: boolean;
}

/** The Hono environment of routes behind `sessionUser`. */
export interface SessionEnv {
  Variables: { user: SessionUser | null };
}

export interface SessionDeps {
  database: AppDatabase;
  /** BETTER_AUTH_SECRET: the key of the cookie's signature. */
  secret: string;
  /** SITE_URL: behind https the cookie has the `__Secure-` prefix. */
  siteUrl: string;
  /** ADMIN_EMAILS, lower-cased. */
  adminEmails: readonly string[];
  /** Stripe is configured: its subscription table exists and counts. */
  stripe: boolean;
  now?: () => number;
}

/** Better Auth's session cookie name for this site. */
export function sessionCookieName(siteUrl: string): string {
  return `${siteUrl.startsWith('https://') ? '__Secure-' : ''}better-auth.session_token`;
}

interface Row {
  userId: string;
  expiresAt: Date | string | number;
  email: string;
  name: string;
  emailVerified: number | boolean | string;
  granted: number | boolean | string;
  subscribed: number | boolean | string;
}


/** Reads sessions: `lookup(cookieHeader)` is the user or null. */
export class SessionReader {
  readonly #deps: SessionDeps;
  readonly #cookie: string;
  readonly #query: CompiledQuery<Row>;
  readonly #operators: Set<string>;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.#cookie = sessionCookieName(deps.siteUrl);
    this.#operators = new Set(deps.adminEmails);
    const db = deps.database.db;
    const subscribed = deps.stripe
      ? sql<number>`exists (select 1 from ${sql.table('subscription')} as b where b.${sql.ref('referenceId')} = u.id and b.status in ('active', 'trialing'))`
      : sql<number>`0`;
    // Compiled once; each request only binds the token.
    this.#query = db
      .selectFrom('session as s')
      .innerJoin('user as u', 'u.id', 's.userId')
      .select([
        's.userId',
        's.expiresAt',
        'u.email',
        'u.name',
        'u.emailVerified',
        sql<number>`exists (select 1 from plan_grant as g where g.user_id = u.id)`.as('granted'),
        subscribed.as('subscribed'),
      ])
      .where('s.token', '=', '')
      .compile() as CompiledQuery<Row>;
  }

  /** The session token from a Cookie header, when its signature is good. */
  token(cookieHeader: string | undefined): string | null {
    if (!cookieHeader) return null;
    const name = `${this.#cookie}=`;
    let start = cookieHeader.indexOf(name);
    while (start > 0 && cookieHeader[start - 1] !== ' ' && cookieHeader[start - 1] !== ';') start = cookieHeader.indexOf(name, start + 1);
    if (start < 0) return null;
    const end = cookieHeader.indexOf(';', start);
    let value = cookieHeader.slice(start + name.length, end < 0 ? undefined : end).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf('.');
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', this.#deps.secret).update(token).digest();
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
  }

  async lookup(cookieHeader: string | undefined): Promise<SessionUser | null> {
    const token = this.token(cookieHeader);
    if (token === null) return null;
    const { rows } = await this.#deps.database.db.executeQuery(CompiledQuery.raw(this.#query.sql, [token]) as CompiledQuery<Row>);
    const row = rows[0];
    if (row === undefined) return null;
    const expires = asDate(row.expiresAt);
    if (expires === null || expires.getTime() <= (this.#deps.now ?? Date.now)()) return null;
    const emailVerified = asBoolean(row.emailVerified);
    return {
      id: row.userId,
      email: row.email,
      name: row.name,
      emailVerified,
      isPremium: asBoolean(row.granted) || asBoolean(row.subscribed),
      isOperator: holdsOperatorRole(row.email, emailVerified, this.#operators),
    };
  }
}

/** Sets `c.var.user` (null when signed out) for the routes after it. */
export function sessionUser(deps: SessionDeps | SessionReader): MiddlewareHandler<SessionEnv> {
  const reader = deps instanceof SessionReader ? deps : new SessionReader(deps);
  return async (c, next) => {
    c.set('user', await reader.lookup(c.req.header('cookie')));
    await next();
  };
}

const refuse = (c: Context, status: 401 | 403, error: string) => c.json({ error }, status, { 'Cache-Control': 'no-store' });

/** 401 unless someone is signed in. */
export const requireUser: MiddlewareHandler<SessionEnv> = async (c, next) => {
  if (c.var.user === null || c.var.user === undefined) return refuse(c, 401, 'Sign in first.');
  await next();
};

/** 401 signed out, 403 unless the user has Pro. */
export const requirePro: MiddlewareHandler<SessionEnv> = async (c, next) => {
  const user = c.var.user;
  if (user === null || user === undefined) return refuse(c, 401, 'Sign in first.');
  if (!user.isPremium) return refuse(c, 403, 'This needs a Pro plan.');
  await next();
};

/** What an unconfirmed account is told (whatever its address, so the answer does not tell who the operators are). */
export const CONFIRM_FIRST = 'Only an operator may do this, and only once the email is confirmed: open the confirmation link we emailed you, or sign in with an emailed link.';

/** 401 signed out, 403 unless the user is an operator (ADMIN_EMAILS, confirmed). */
export const requireOperator: MiddlewareHandler<SessionEnv> = async (c, next) => {
  const user = c.var.user;
  if (user === null || user === undefined) return refuse(c, 401, 'Sign in as an operator first.');
  if (!user.isOperator) return refuse(c, 403, user.emailVerified ? 'Only an operator may do this.' : CONFIRM_FIRST);
  await next();
};
