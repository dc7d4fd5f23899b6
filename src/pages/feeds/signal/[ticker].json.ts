import type { APIRoute, GetStaticPaths } from 'astro';
import { jsonFeed11 } from '../../../lib/domain/alerts/stock-feeds';
import { stockFeedTickers, stockSignalFeed } from '../../../lib/site-stock-feeds';

export const getStaticPaths = (() => stockFeedTickers().map((ticker) => ({ params: { ticker } }))) satisfies GetStaticPaths;

/** One stock's JSON Feed of its signal changes. */
export const GET: APIRoute = ({ params }) => new Response(jsonFeed11(stockSignalFeed(params.ticker!).json1()), { headers: { 'Content-Type': 'application/feed+json; charset=utf-8' } });
