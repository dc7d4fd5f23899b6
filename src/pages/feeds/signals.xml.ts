import type { APIRoute } from 'astro';
import { publicSignalFeed } from '../../lib/site-feeds';

/** The public Atom feed of the day's new, exited and reversed signals. */
export const GET: APIRoute = () => new Response(publicSignalFeed().atom1(), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
