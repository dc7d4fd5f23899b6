import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoProvider } from '../../src/server/providers/demo';
import { buildSite, startApi, universeOf, type BuiltSite, type RunningApi } from './api-harness';

// The harness's report is Fri Nov 20 2026; Thanksgiving is Thu Nov 26. November is EST: the bell is 14:30Z.
let clock = Date.parse('2026-11-20T15:00:00Z');
let site: BuiltSite;
let api: RunningApi;

beforeAll(async () => {
  site = await buildSite();
  const now = () => clock;
  api = await startApi(site, new DemoProvider({ universe: await universeOf(site), now }), now);
}, 240_000);

afterAll(async () => {
  await api?.close();
  if (site) await rm(site.work, { recursive: true, force: true });
});

async function health(at: string): Promise<Record<string, unknown>> {
  clock = Date.parse(at);
  const response = await api.get('/api/health');
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('/api/health and the report\'s age', () => {
  it('is current on the report\'s day and over the weekend, until Monday\'s bell', async () => {
    expect(await health('2026-11-20T15:00:00Z')).toMatchObject({ status: 'ok', reportDate: '2026-11-20', report: 'current', tradingDaysBehind: 0 });
    expect(await health('2026-11-23T14:29:00Z')).toMatchObject({ report: 'current', tradingDaysBehind: 0 });
  });

  it('is one trading day behind on Monday after the bell, not yet stale', async () => {
    expect(await health('2026-11-23T15:00:00Z')).toMatchObject({ status: 'ok', report: 'behind', tradingDaysBehind: 1 });
  });

  it('says stale past one trading day, skipping Thanksgiving', async () => {
    expect(await health('2026-11-24T15:00:00Z')).toMatchObject({ status: 'ok', report: 'stale', tradingDaysBehind: 2 });
    expect(await health('2026-11-26T20:00:00Z')).toMatchObject({ report: 'stale', tradingDaysBehind: 3 });
    expect(await health('2026-11-27T15:00:00Z')).toMatchObject({ report: 'stale', tradingDaysBehind: 4 });
  });
});

describe('the pages written at build time name the report\'s day', () => {
  // The build ran on this machine's clock, long after Nov 20 2026's report: the pages must not say "today".
  const page = (path: string) => readFile(join(site.distDir, 'client', path), 'utf8');
  const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

  it('every page shows "Latest report" with its date and age, and no heading says today', async () => {
    for (const path of ['index.html', 'currently-qualified/index.html', 'recently-qualified/index.html', 'archives/index.html', 'signal/AAPL/index.html']) {
      const html = await page(path);
      expect(html, path).toMatch(/<p class="report-day[^"]*" data-report-day data-opens="\d+(,\d+)*"[^>]*>/);
      expect(html, path).not.toMatch(/data-report-day[^>]* hidden/);
      expect(visible(html), path).toMatch(/Latest report: Nov 20, 2026 ?, (\d+ trading days|more than 20 trading days) ago ?\./);
      for (const heading of html.match(/<h[1-6][^>]*>[\s\S]*?<\/h[1-6]>/g) ?? []) expect(visible(heading), path).not.toMatch(/today/i);
    }
    const landing = visible(await page('index.html'));
    expect(landing).not.toMatch(/today/i);
    expect(visible(await page('currently-qualified/index.html'))).toMatch(/\d+ +qualify on Nov 20, 2026 ?,/);
  });

  it('carries both wordings and the bells for the visitor\'s clock', async () => {
    const html = await page('index.html');
    expect(html).toContain('<span data-today="New today" data-dated="New">New</span>');
    const opens = /data-opens="([\d,]+)"/.exec(html)![1]!.split(',').map(Number);
    expect(opens.slice(0, 4).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-11-23T14:30:00.000Z', '2026-11-24T14:30:00.000Z', '2026-11-25T14:30:00.000Z', '2026-11-27T14:30:00.000Z',
    ]);
  });
});
