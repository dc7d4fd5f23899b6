/**
 * aiRoutes keeps Hono's route types (no cast to a bare Hono): a typed client (`hono/client`) sees every AI route with
 * its parameters and its JSON answers. `npm run check` type-checks this file; the run checks the addresses it builds.
 */
import { hc } from 'hono/client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { aiRoutes } from '../../src/server/routes/ai';

type AiApp = ReturnType<typeof aiRoutes>;
const client = hc<AiApp>('http://127.0.0.1:4321/api/ai');

describe('the AI routes as a typed client sees them', () => {
  it('has each route, with its parameters', () => {
    expect(client.status.$url().pathname).toBe('/api/ai/status');
    expect(client.brief.$url().pathname).toBe('/api/ai/brief');
    expect(client.analysis[':ticker'].$url({ param: { ticker: 'XOM' } }).pathname).toBe('/api/ai/analysis/XOM');
    expect(client.chats[':id'].$url({ param: { id: 'chat-1' } }).pathname).toBe('/api/ai/chats/chat-1');
    expect(client.chats.delete.$url().pathname).toBe('/api/ai/chats/delete');
  });

  it('types the JSON answers and the bodies', () => {
    type Status = Awaited<ReturnType<Awaited<ReturnType<typeof client.status.$get>>['json']>>;
    expectTypeOf<Status['configured']>().toEqualTypeOf<boolean>();
    expectTypeOf<Status['plan']>().toEqualTypeOf<'pro' | 'free' | null>();
    expectTypeOf<Parameters<typeof client.analysis.$post>[0]>().toHaveProperty('json');
    expectTypeOf<Parameters<typeof client.analysis.$post>[0]['json']>().toEqualTypeOf<{ ticker: string }>();
  });
});
