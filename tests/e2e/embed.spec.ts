/**
 * Embeds on another site, in Chromium: a page served from another origin shows our badge and frames our card; the
 * same page framing a stock page is refused (frame-ancestors 'none'), as every page but the cards is. The stock
 * page's Embed card offers both snippets, at 390 and 1280 px.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { DEMO_URL } from './servers';

test.use({ baseURL: DEMO_URL });

let other: Server;
let otherOrigin = '';
test.beforeAll(async () => {
  // A blog on another origin that embeds the badge and the card, and tries to frame a stock page.
  other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><body><h1>A blog</h1>
<a href="${DEMO_URL}/signal/AAPL"><img id="badge" src="${DEMO_URL}/badge/AAPL.svg" alt="AAPL C-Score"></a>
<iframe id="card" src="${DEMO_URL}/embed/AAPL" title="AAPL card" width="320" height="200"></iframe>
<iframe id="page" src="${DEMO_URL}/signal/AAPL" title="AAPL page" width="320" height="180"></iframe>
</body></html>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

test('another site shows the badge and frames the card; framing a stock page is refused', async ({ page }) => {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
  });
  await page.goto(otherOrigin);
  const badge = page.locator('#badge');
  await expect(badge).toBeVisible();
  await expect.poll(() => badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const card = page.frameLocator('#card');
  await expect(card.getByRole('link', { name: /C-Score Signals: AAPL/ })).toHaveAttribute('href', /\/signal\/AAPL$/);
  await expect(card.getByRole('link', { name: /C-Score Signals: AAPL/ })).toHaveAttribute('rel', 'noopener');
  await expect(card.locator('time')).toHaveText('Nov 20, 2026');
  await expect(card.getByRole('img', { name: 'C-Score over the last 7 reports' })).toBeVisible();
  // The stock page refuses to be framed: Chromium says why, and the frame holds none of the page.
  // One refusal: the stock page's (the card loaded above).
  await expect.poll(() => refusals.length).toBe(1);
  expect(refusals[0]).toContain("frame-ancestors 'none'");
  await expect(page.frameLocator('#page').getByRole('heading', { name: /AAPL/ })).toHaveCount(0);
});

for (const width of [390, 1280]) {
  test(`the stock page's Embed card shows both snippets to copy at ${width} px`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: DEMO_URL, viewport: { width, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto('/signal/AAPL');
    const embed = page.getByTestId('embed');
    await embed.getByText('Embed AAPL on your site').click();
    const badge = embed.getByLabel(/^Badge/);
    await expect(badge).toHaveValue(/^<a href="http:\/\/[^"]+\/signal\/AAPL"><img src="http:\/\/[^"]+\/badge\/AAPL\.svg" alt="AAPL C-Score on C-Score Signals" height="20"><\/a>$/);
    await expect(embed.getByLabel(/^Card/)).toHaveValue(/^<iframe src="http:\/\/[^"]+\/embed\/AAPL"/);
    // The snippet fits the card: no page wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await embed.getByRole('button', { name: 'Copy the badge snippet' }).click();
    await expect(page.getByText('Snippet copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await badge.inputValue());
    await context.close();
  });
}
