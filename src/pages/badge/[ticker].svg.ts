import type { APIRoute, GetStaticPaths } from 'astro';
import { isScoreLocked } from '../../lib/domain/accounts/entitlements';
import type { SignalRecord } from '../../lib/domain/report/schemas';
import { badgeSvg } from '../../lib/domain/site/embed';
import { anonymousViewer, siteSlice } from '../../lib/site-access';
import { siteData } from '../../lib/site-data';
import { SITE_NAME } from '../../lib/site-meta';

export const getStaticPaths = (() =>
  siteData().history.latest.map((record) => ({ params: { ticker: record.ticker }, props: { record } }))) satisfies GetStaticPaths;

/** /badge/{T}.svg: the day's C-Score of a ticker as an embeddable badge (a locked ticker says "Top signal"). */
export const GET: APIRoute<{ record: SignalRecord }> = ({ props: { record } }) => {
  const locked = isScoreLocked(record.ticker, siteSlice(), anonymousViewer());
  const svg = badgeSvg({ ticker: record.ticker, reportDate: record.reportDate, cScore: locked ? null : record.cScore }, SITE_NAME);
  return new Response(svg, { headers: { 'Content-Type': 'image/svg+xml' } });
};
