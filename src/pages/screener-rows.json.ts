import type { APIRoute } from 'astro';
import { packScreenRows } from '../lib/domain/signals/screener-page';
import { siteScreener } from '../lib/site-screener';

/** The screener's rows as data, in its table's order: the page script (and the server's render) screen them. */
export const GET: APIRoute = () => new Response(packScreenRows(siteScreener().rows), { headers: { 'Content-Type': 'application/json' } });
