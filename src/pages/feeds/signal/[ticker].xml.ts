import type { APIRoute, GetStaticPaths } from 'astro';
import { stockFeedTickers, stockSignalFeed } from '../../../lib/site-stock-feeds';

export const getStaticPaths = (() => stockFeedTickers().map((ticker) => ({ params: { ticker } }))) satisfies GetStaticPaths;

/** One stock's Atom feed of its signal changes. */
export const GET: APIRoute = ({ params }) => new Response(stockSignalFeed(params.ticker!).atom1(), { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
