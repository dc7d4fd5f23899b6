import type { APIRoute } from 'astro';
import { publicSignalFeed } from '../../lib/site-feeds';

/** The public JSON Feed of the day's new, exited and reversed signals. */
export const GET: APIRoute = () => new Response(publicSignalFeed().json1(), { headers: { 'Content-Type': 'application/feed+json; charset=utf-8' } });
