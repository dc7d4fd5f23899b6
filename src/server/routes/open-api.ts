/** GET /api/openapi.json: the OpenAPI 3.1 document (src/server/openapi.ts), its examples taken from the published report. */
import { Hono } from 'hono';
import { readArchive } from '../../storage/archive';
import { openApiDocument, type OpenApiExamples } from '../openapi';
import type { ApiContext } from './context';

/** Browsers and CDNs may keep the document a few minutes: it changes only with the code and the day's report. */
const OPENAPI_CACHE = { 'Cache-Control': 'public, max-age=300' };

/** The examples: a ticker of the report (AAPL when it has it), the report's date, and the archived file of that date. */
async function examplesOf(context: ApiContext): Promise<OpenApiExamples | null> {
  const site = await context.site.current().catch(() => null);
  if (site === null) return null;
  const files = await readArchive(context.archiveDir).catch(() => []);
  const ticker = site.records.has('AAPL') ? 'AAPL' : ([...site.records.keys()][0] ?? 'AAPL');
  const file = files.find((f) => f.reportDates.includes(site.reportDate)) ?? files[0];
  return { ticker, reportDate: site.reportDate, archiveId: file?.id ?? '0000000000000000' };
}

/** The document's route. */
export function openApiRoutes(context: ApiContext) {
  let cached: { key: string; body: string } | null = null;
  return new Hono().get('/openapi.json', async (c) => {
    const examples = (await examplesOf(context)) ?? { ticker: 'AAPL', reportDate: '2026-11-20', archiveId: '0000000000000000' };
    const key = JSON.stringify(examples);
    if (cached?.key !== key) cached = { key, body: JSON.stringify(openApiDocument(examples, context.siteName, context.siteOrigins[0] ?? null)) };
    return c.body(cached.body, 200, { ...OPENAPI_CACHE, 'Content-Type': 'application/json; charset=utf-8' });
  });
}
