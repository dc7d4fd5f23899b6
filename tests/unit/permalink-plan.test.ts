/** Which signal permalinks a daily build keeps from the published one and which it renders (src/ingest/permalinks.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planPermalinks, type PermalinkManifest } from '../../src/ingest/permalinks';
import type { LedgerRow } from '../../src/lib/domain/track-record/track-record';
import { ledgerRow } from '../fixtures/ledger';

// Settled once exited (every horizon closed); an open signal's 90 days are still open.
const row = (ticker: string, date: string, exitDate: string | null): LedgerRow => ledgerRow(ticker, date, exitDate, ['closed', 'closed', exitDate === null ? 'open' : 'closed']);

// Newest first, as the track record lists a ticker's rows.
const byTicker = new Map<string, LedgerRow[]>([
  ['AAPL', [row('AAPL', '2026-09-01', null), row('AAPL', '2026-03-02', '2026-03-09'), row('AAPL', '2026-01-02', '2026-01-09')]],
  ['XOM', [row('XOM', '2026-02-02', '2026-02-09')]],
]);
const content = () => ({ name: 'Name', inLatest: true, benchmark: null, prices: 'demo', asOf: '2026-11-20' });
const client = mkdtempSync(join(tmpdir(), 'permalink-plan-'));
afterAll(() => rmSync(client, { recursive: true, force: true }));

describe('the permalink plan', () => {
  const first = planPermalinks(null, null, 'shell-1', byTicker, content);

  it('renders every page when there is no published build', () => {
    expect(first.kept).toEqual([]);
    expect(first.rendered).toEqual(['AAPL/2026-09-01', 'AAPL/2026-03-02', 'AAPL/2026-01-02', 'XOM/2026-02-02']);
  });

  it('keeps the settled pages the published build has, and renders the open one and any it lost', () => {
    // The published build has both settled AAPL pages and the open one, but lost XOM's.
    for (const date of ['2026-09-01', '2026-03-02', '2026-01-02']) {
      mkdirSync(join(client, 'signal', 'AAPL', date), { recursive: true });
      writeFileSync(join(client, 'signal', 'AAPL', date, 'index.html'), '<!doctype html>');
    }
    writeFileSync(join(client, 'signal', 'AAPL', 'index.html'), '<!doctype html>');
    const next = planPermalinks(first.manifest, client, 'shell-1', byTicker, content);
    expect(next.kept).toEqual(['AAPL/2026-03-02', 'AAPL/2026-01-02']);
    expect(next.rendered).toEqual(['AAPL/2026-09-01', 'XOM/2026-02-02']);
  });

  it('renders every page again under another shell (the code or the settings changed)', () => {
    const manifest: PermalinkManifest = first.manifest;
    const next = planPermalinks(manifest, client, 'shell-2', byTicker, content);
    expect(next.kept).toEqual([]);
    expect(next.rendered).toHaveLength(4);
  });
});
