import type { APIRoute } from 'astro';
import { appManifest } from '../lib/domain/site/app-manifest';
import { SITE_NAME } from '../lib/site-meta';

/** The web app manifest: the site is installable. */
export const GET: APIRoute = () => new Response(JSON.stringify(appManifest(SITE_NAME), null, 2), { headers: { 'Content-Type': 'application/manifest+json' } });
