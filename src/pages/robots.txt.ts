import type { APIRoute } from 'astro';
import { robotsTxt } from '../lib/domain/site/routes';

/** robots.txt: every page may be crawled, the live API may not, and the sitemap is named. */
export const GET: APIRoute = ({ site }) => new Response(robotsTxt(site?.href ?? 'http://localhost:4321/'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
