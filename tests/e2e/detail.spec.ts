import { expect as baseExpect, test, type Page } from '@playwright/test';
import { daysBefore, EARNINGS_LOOKBACK_DAYS } from '../../src/lib/domain/market-data/fundamentals';
import { formatDate, formatShortDate } from '../../src/lib/domain/text/format';
import { fakeEarningsDates, fakeRatios } from '../fixtures/fake-polygon';
import { DEMO_URL, POLYGON_URL } from './servers';

// The shared test machine can be slow (islands load on first use, three servers share two cores): allow them time.
const expect = baseExpect.configure({ timeout: 15_000 });

// The detail journeys run against the app whose provider is Polygon, pointed at the fake Polygon server
// (tests/fixtures/fake-polygon-server.ts): every live card is filled by the real server from Polygon's reference
// answers. The fake's quote for any ticker is the reference snapshot (last trade 120.47, +0.98 / +0.82% on the
// day, previous close 119.49, day 118.81 to 120.53, volume 28,727,868) with the market cap of the reference ticker
// details (2,771,126,040,150). PNW has five news articles; every call about MMM answers 500. The polygon app's daily
// job fetched the fake's ratios and earnings calendar (fakeRatios, fakeEarningsDates) into its build.
test.use({ baseURL: POLYGON_URL });

/** The next earnings date the fake's calendar gives PNW, asked on the day the build ran (today, UTC). */
const pnwNextEarnings = () => fakeEarningsDates('PNW', daysBefore(new Date().toISOString().slice(0, 10), EARNINGS_LOOKBACK_DAYS)).next;

// Tickers of the sample's latest report (2026-11-20), one per classification:
//   PNW  bullish, a top ticker, up from 93.29; APTV bearish, down from -75.40; MMM neutral, up from -32.11.

// Dark theme (the default): Tailwind's green-400, red-400 and gray-400 for the score, -600/-500 for the bar.
const GREEN = 'oklch(0.792 0.209 151.711)';
const RED = 'oklch(0.704 0.191 22.216)';
const GREY = 'oklch(0.707 0.022 261.325)';
const BAR = { bullish: 'oklch(0.627 0.194 149.214)', bearish: 'oklch(0.577 0.245 27.325)', neutral: 'oklch(0.551 0.027 264.364)' };

/** Waits for the real server's answer to a live route, and checks its status. */
async function liveAnswer(page: Page, route: string, status: number) {
  const response = await page.waitForResponse((r) => new URL(r.url()).pathname === route, { timeout: 15_000 });
  expect(response.status(), route).toBe(status);
  return response;
}

/** The articles of the Latest News card. */
function newsItems(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'Latest News' }) }).locator('li');
}

test.describe('the stock detail page', () => {
  test('a bullish top ticker: badge, star, texts, colours, bar, arrow, averages and meta tags', async ({ page, request }) => {
    const response = await page.goto('/signal/PNW');
    expect(response?.status()).toBe(200);
    // The title names the company, the ticker and today's signal, then the tool.
    await expect(page).toHaveTitle('Pinnacle West Capital (PNW): Bullish, C-Score 96.81 on Nov 20, 2026 | C-Score Signals');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('PNW');
    await expect(page.getByRole('img', { name: 'Top Signal' })).toHaveAttribute('title', 'Top Signal');
    await expect(page.locator('h1 .badge')).toHaveText('Bullish');
    const score = page.getByTestId('cscore');
    await expect(score).toHaveText('96.81', { timeout: 5000 });
    await expect(score).toHaveCSS('color', GREEN);
    await expect(page.getByTestId('vs-yesterday')).toContainText('vs 93.3 yesterday');
    await expect(page.getByTestId('vs-yesterday').locator('[data-arrow]')).toHaveAttribute('data-arrow', 'up');
    await expect(page.getByTestId('vs-yesterday')).toContainText('▲');
    const fill = page.getByTestId('score-bar-fill');
    await expect(fill).toHaveAttribute('style', /left:\s*50%;\s*width:\s*48\.405%/);
    await expect(fill).toHaveCSS('background-color', BAR.bullish);
    await expect(page.getByTestId('market-score')).toHaveText('94.23');
    await expect(page.getByTestId('delta-score')).toHaveText('56.86');
    await expect(page.getByTestId('explanation-top')).toContainText('PNW is among the strongest signals');
    await expect(page.getByTestId('explanation-bullish')).toContainText('strong positive momentum, with a C-Score of 65 or more');
    await page.getByText('More information').click();
    await expect(page.getByText('C-Score interpretation guide')).toBeVisible();
    const history = page.getByTestId('cscore-history');
    await expect(history).toContainText('7-Day Average91.85');
    await expect(history).toContainText('14-Day Average91.90');
    await expect(history).toContainText('7-Day Signals7 of 7 days');
    await expect(history).toContainText('14-Day Signals14 of 14 days');
    await expect(page.getByTestId('signal-metrics')).toContainText('Delta Score56.86');
    await expect(page.getByTestId('similar-tickers').getByRole('link')).toHaveCount(12);
    await expect(page.getByTestId('report-date')).toHaveText('Signal data uploaded: Nov 20, 2026');
    await expect(page.getByText(/^Disclaimer: .*not investment, financial, legal or tax advice/)).toBeVisible();
    await expect(page.getByRole('link', { name: /Back to Dashboard/ })).toHaveAttribute('href', '/');

    // Meta: description, Open Graph, Twitter, the share image.
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Pinnacle West Capital \(PNW\): Bullish, C-Score 96\.81 on Nov 20, 2026\. /);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image).toMatch(/\/og\/signal\/PNW\.png$/);
    const png = await request.get(new URL(image!).pathname);
    expect(png.headers()['content-type']).toBe('image/png');
    const bytes = await png.body();
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    const [webPage, corporation, breadcrumbs] = ld['@graph'];
    expect([webPage['@type'], corporation['@type'], breadcrumbs['@type']]).toEqual(['WebPage', 'Corporation', 'BreadcrumbList']);
    expect(corporation.tickerSymbol).toBe('PNW');

    // One address for the page, the one it is served and linked at: canonical, og:url, JSON-LD and the sitemap.
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toMatch(/^https?:\/\/[^/]+\/signal\/PNW$/);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical!);
    expect([webPage['@id'], webPage.url, breadcrumbs.itemListElement.at(-1).item]).toEqual([canonical, canonical, canonical]);
    const sitemap = await (await request.get('/sitemap-stocks-0.xml')).text();
    expect(sitemap).toContain(`<loc>${canonical}</loc>`);
    expect(sitemap).not.toContain(`<loc>${canonical}/</loc>`);
  });

  test('a bearish ticker: red, arrow down, bar filled left of the centre, bearish text', async ({ page }) => {
    await page.goto('/signal/APTV');
    await expect(page.locator('h1 .badge')).toHaveText('Bearish');
    await expect(page.getByRole('img', { name: 'Top Signal' })).toHaveCount(0);
    await expect(page.getByTestId('cscore')).toHaveText('-76.21', { timeout: 5000 });
    await expect(page.getByTestId('cscore')).toHaveCSS('color', RED);
    await expect(page.getByTestId('vs-yesterday')).toContainText('▼');
    await expect(page.getByTestId('vs-yesterday')).toContainText('vs -75.4 yesterday');
    await expect(page.getByTestId('score-bar-fill')).toHaveAttribute('style', /left:\s*11\.895%;\s*width:\s*38\.105%/);
    await expect(page.getByTestId('score-bar-fill')).toHaveCSS('background-color', BAR.bearish);
    await expect(page.getByTestId('explanation-bearish')).toContainText('C-Score of -65 or less');
    await expect(page.getByTestId('cscore-history')).toContainText('7-Day Average-73.08');
  });

  test('a neutral ticker whose market data is down upstream: grey, neutral text, no price card, no news', async ({ page }) => {
    // The fake Polygon answers 500 to every call about MMM: the server has no quote to give (503), and the
    // spec's price card hides on error.
    const quote = liveAnswer(page, '/api/stock-price/MMM', 503);
    const news = liveAnswer(page, '/api/polygon/news/MMM', 200);
    await page.goto('/signal/MMM');
    await expect(page.locator('h1 .badge')).toHaveText('Neutral');
    await expect(page.getByTestId('cscore')).toHaveText('-25.72', { timeout: 5000 });
    await expect(page.getByTestId('cscore')).toHaveCSS('color', GREY);
    await expect(page.getByTestId('score-bar-fill')).toHaveCSS('background-color', BAR.neutral);
    await expect(page.getByTestId('vs-yesterday')).toContainText('▲');
    await expect(page.getByTestId('score-bar-fill')).toHaveAttribute('style', /left:\s*37\.14%;\s*width:\s*12\.86%/);
    await expect(page.getByTestId('explanation-neutral')).toContainText('C-Score between -65 and 65');
    await expect(page.getByTestId('explanation-top')).toHaveCount(0);
    await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
    await quote;
    expect(await (await news).json()).toEqual({ results: [] });
    // The first answer and the client's two retries a second apart (spec section 9) all fail before it hides.
    await expect(page.getByTestId('price-card')).toHaveCount(0, { timeout: 10_000 });
    await expect(page.getByTestId('header-price')).toHaveCount(0);
    await expect(page.getByText('Loading news...')).toHaveCount(0);
    await expect(newsItems(page)).toHaveCount(0);
  });

  test('live cards from Polygon: every price field and its source, 3 of 5 news with an image fallback, the earnings date, copy and watch', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const quote = liveAnswer(page, '/api/stock-price/PNW', 200);
    const earnings = liveAnswer(page, '/api/earnings-date/PNW', 200);
    await page.goto('/signal/PNW');
    const answer = await (await quote).json();
    expect(answer).toMatchObject({ symbol: 'PNW', regularMarketPrice: 120.47, marketCap: 2771126040150 });
    expect(answer).not.toHaveProperty('isDemo');
    await expect(page.getByTestId('header-price')).toHaveText('$120.47');
    await expect(page.getByTestId('header-change')).toHaveText('▲ +0.98 (+0.82%)');
    await expect(page.getByText('Demo price', { exact: true })).toHaveCount(0);
    const price = page.getByTestId('price-card');
    await price.scrollIntoViewIfNeeded();
    await expect(price.getByRole('heading')).toHaveText('Price Information');
    for (const text of ['Current Price$120.47', 'Day Change+0.82% (+0.98)', 'Prev. Close$119.49', 'Daily Range$118.81 - $120.53', 'Volume28,727,868', 'Market Cap$2,771.13B']) {
      await expect(price).toContainText(text);
    }
    // P/E, EPS and dividend yield come from the daily job's ratios, through the server (no route is faked here); no
    // source has beta, so it stays hidden.
    const ratios = fakeRatios('PNW');
    expect(answer).toMatchObject({ trailingPE: ratios.price_to_earnings, eps: ratios.earnings_per_share, dividendYield: ratios.dividend_yield });
    for (const text of [`P/E Ratio${ratios.price_to_earnings.toFixed(2)}`, `EPS$${ratios.earnings_per_share.toFixed(2)}`, `Dividend Yield${(ratios.dividend_yield * 100).toFixed(2)}%`]) {
      await expect(price).toContainText(text);
    }
    await expect(price).not.toContainText('Beta');
    await expect(page.getByTestId('price-source')).toContainText(/^Data from Polygon\.io • Updated at \d{1,2}:\d{2}\s?[AP]M$/);
    // The snapshot's `updated` names the session its prices belong to.
    await expect(page.getByTestId('price-session')).toHaveText('as of Nov 12, 2020');
    await expect(price.getByRole('link', { name: /Yahoo/ })).toHaveAttribute('href', 'https://finance.yahoo.com/quote/PNW');
    await expect(price.getByRole('link', { name: /Yahoo/ })).toHaveAttribute('target', '_blank');

    // Spec: the first 3 of 5 fetched articles, each with image (placeholder icon on image error), title link,
    // published date, publisher name and description. The card loads when it comes into view.
    const news = liveAnswer(page, '/api/polygon/news/PNW', 200);
    await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
    expect(((await (await news).json()) as { results: unknown[] }).results).toHaveLength(5);
    const articles = page.getByRole('link', { name: /^Pinnacle West news \d$/ });
    await expect(articles).toHaveText(['Pinnacle West news 1', 'Pinnacle West news 2', 'Pinnacle West news 3']);
    await expect(articles.first()).toHaveAttribute('href', 'https://news.example.com/pnw/1');
    await expect(articles.first()).toHaveAttribute('target', '_blank');
    const items = newsItems(page);
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText('Nov 19, 2026 · Investing.com');
    await expect(items.nth(0)).toContainText('Description of Pinnacle West news 1.');
    // Article 1's image cannot load: the placeholder replaces it. Article 2's loads. Article 3 has none.
    await expect(items.nth(0).getByTestId('news-placeholder')).toHaveCount(1);
    await expect(items.nth(0).locator('img')).toHaveCount(0);
    await expect.poll(() => items.nth(1).locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    await expect(items.nth(1).getByTestId('news-placeholder')).toHaveCount(0);
    await expect(items.nth(2).getByTestId('news-placeholder')).toHaveCount(1);
    await expect(page.getByText('Loading news...')).toHaveCount(0);

    // The next earnings date of the daily job's calendar: in the page from the build, and from the server's route.
    const next = pnwNextEarnings();
    expect(await (await earnings).json()).toEqual({ earningsAvailable: true, earningsDate: next, nextEarningsDate: next });
    await expect(page.getByTestId('earnings-badge')).toHaveText(`Earnings: ${formatDate(next)}`);

    // The page script marks the live header once it has hydrated it.
    await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');
    await page.getByRole('button', { name: 'Copy link to this page' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/signal\/PNW$/);
    await expect(page.getByText('URL copied')).toBeVisible();
    const watch = page.getByTestId('watch-toggle');
    await expect(watch).toHaveAttribute('aria-pressed', 'false');
    await watch.click();
    await expect(watch).toHaveAttribute('aria-pressed', 'true');
    await expect(watch).toHaveText(/Watching/);
    expect(await page.evaluate(() => localStorage.getItem('watched-tickers'))).toBe('["PNW"]');
  });

  test('beta, which no source of ours has, shows when a quote carries it, beside the served figures', async ({ page }) => {
    // Only beta is added to the server's own answer: every other figure is what the server sent.
    await page.route('**/api/stock-price/PNW', async (route) => {
      const served = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...served, beta: 0.52 } });
    });
    await page.goto('/signal/PNW');
    const price = page.getByTestId('price-card');
    await price.scrollIntoViewIfNeeded();
    for (const text of ['Market Cap$2,771.13B', `P/E Ratio${fakeRatios('PNW').price_to_earnings.toFixed(2)}`, 'Beta0.52']) {
      await expect(price).toContainText(text);
    }
  });

  test('the trend chart: the build\'s drawing first, coloured by the score, then live with its crosshair', async ({ page }) => {
    // The trend file is held until the first paint is checked: the live chart needs it, the first paint does not.
    const trendRequests: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/c-score-trend/*', async (route) => {
      trendRequests.push(route.request().url());
      await held;
      await route.continue();
    });
    await page.goto('/signal/PNW');
    const chart = page.getByTestId('trend-chart');
    await expect(chart).toHaveAttribute('data-state', 'chart');
    // First paint: the whole chart, drawn at build time in the reserved box (one line, the spec's ticks and averages).
    await expect(chart.locator('svg path')).toHaveCount(1);
    await expect(chart.locator('svg path')).toHaveAttribute('stroke', '#16a34a');
    await expect(chart.locator('[data-average-label]')).toHaveText(['14D Avg', '7D Avg']);
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', 'C-Score trend for PNW over 60 reports: current day 96.81, 7-day average 91.85, 14-day average 91.90.');
    release();
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('data-drawn', 'true');
    await expect(chart).toHaveAttribute('data-color', 'bullish');
    // The price pane's 96 px above the spec's 180 px of C-Score.
    expect((await chart.boundingBox())!.height).toBe(96 + 180);
    await expect(chart.getByTestId('trend-summary')).toHaveText('C-Score trend for PNW over 60 reports: current day 96.81, 7-day average 91.85, 14-day average 91.90.');
    await chart.getByTestId('trend-live').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('trend-legend')).toContainText('Previous day 93.29');
    // One request: the trend's static file.
    expect(trendRequests).toHaveLength(1);
  });
});

test('the trend chart\'s ranges: 3M by default, 1M by keyboard, 1Y and All off with the reason when the history is shorter', async ({ page }) => {
  const trendRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/c-score-trend/')) trendRequests.push(r.url());
  });
  await page.goto('/signal/PNW');
  const chart = page.getByTestId('trend-chart');
  const ranges = page.getByRole('group', { name: 'Trend range for PNW' });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  await expect(ranges.getByRole('button', { name: 'Last 3 months' })).toHaveAttribute('aria-pressed', 'true');
  // The sample's 60 weekday reports (2026-08-28 to 2026-11-20) all lie within 3 months of the report date.
  await expect(chart.getByTestId('trend-summary')).toHaveText(/over 60 reports/);
  await expect(chart).toHaveAttribute('data-visible-from', '2026-08-28');
  await ranges.getByRole('button', { name: 'Last month' }).focus();
  await page.keyboard.press('Enter');
  await expect(ranges.getByRole('button', { name: 'Last month' })).toHaveAttribute('aria-pressed', 'true');
  await expect(ranges.getByRole('button', { name: 'Last 3 months' })).toHaveAttribute('aria-pressed', 'false');
  // Weekdays from 2026-10-20 to 2026-11-20.
  await expect(chart.getByTestId('trend-summary')).toHaveText(/over 24 reports/);
  await expect(chart).toHaveAttribute('data-visible-from', /^2026-10-2[0-3]$/);
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  // With 60 days of history 1Y and All would show what 3M shows: they are off, and the note under the buttons says why.
  await expect(ranges.getByRole('button', { name: 'All history' })).toBeDisabled();
  await expect(ranges.getByRole('button', { name: 'Last year' })).toBeDisabled();
  await expect(page.getByTestId('trend-ranges-note')).toHaveText('1Y and All show the same as 3M: the history starts on Aug 28, 2026 (60 reports).');
  await ranges.getByRole('button', { name: 'Last 3 months' }).click();
  await expect(chart.getByTestId('trend-summary')).toHaveText(/over 60 reports/);
  // The live chart loads the trend's static file once; a range only moves its view.
  expect(trendRequests).toHaveLength(1);
});

/** The modal's script island listens for row clicks once hydrated (client:idle); Astro then drops its ssr attribute. */
async function waitForModalIsland(page: Page) {
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
}

test.describe('the detail modal', () => {
  test('a row opens the dialog at /signal/{T} with the live cards; Escape and the close button close it and focus returns', async ({ page }) => {
    await page.goto('/');
    await waitForModalIsland(page);
    // The list page itself runs no React: the dialog's code, React with it, loads once a row link is pointed at.
    const reactIn = async () => {
      const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => /\.js(\?|$)/.test(name)));
      const texts = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
      return texts.filter((text) => text.includes('react.transitional.element')).length;
    };
    expect(await reactIn()).toBe(0);
    const link = page.locator('#all-signals a[data-detail-link][href="/signal/PNW"]');
    await link.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await expect(dialog.getByRole('heading', { name: /PNW/ })).toBeVisible();
    await expect(page).toHaveTitle('C-Score Signals PNW');
    await expect(dialog).toHaveAttribute('aria-describedby', /.+/);
    await expect(dialog.getByText('Pinnacle West Capital: C-Score detail for the report of Nov 20, 2026')).toBeVisible();
    await expect(dialog.getByTestId('cscore')).toHaveText('96.81', { timeout: 5000 });
    expect(await reactIn()).toBeGreaterThan(0);
    // Spec: the modal shows 'Earnings:' with the short month and day of the next date.
    await expect(dialog.getByTestId('earnings-badge')).toHaveText(`Earnings: ${formatShortDate(pnwNextEarnings())}`);
    await expect(dialog.getByTestId('trend-chart')).toHaveAttribute('data-state', 'chart');
    // The price pane's 96 px above the spec's 225 px of C-Score in the modal.
    expect((await dialog.getByTestId('trend-chart').boundingBox())!.height).toBe(96 + 225);
    const price = dialog.getByTestId('price-card');
    await expect(price.getByRole('heading')).toHaveText('Price Details');
    for (const text of ['Current Price$120.47', 'Open$119.62', 'High$120.53', 'Low$118.81', 'Last Updated']) await expect(price).toContainText(text);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/$/);
    await expect(link).toBeFocused();
    await expect(page).not.toHaveTitle('C-Score Signals PNW');

    await link.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(link).toBeFocused();

    // The address of the open dialog is a real page: a reload lands on it.
    await link.click();
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await page.reload();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('PNW');
  });

  test('reopened at once for another ticker, the dialog never shows the previous ticker\'s content (spec: the 150 ms and 300 ms resets)', async ({ page }) => {
    // The second record answers slowly, so the body's reset to the skeleton after 150 ms can be seen.
    let soRequests = 0;
    await page.route('**/api/stock/SO', async (route) => {
      soRequests++;
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.goto('/');
    await waitForModalIsland(page);
    await page.locator('#all-signals a[data-detail-link][href="/signal/PNW"]').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('cscore')).toHaveAttribute('data-countup', '96.81');
    await expect(dialog).toContainText('Pinnacle West Capital');

    // Close (Back, as Escape does) and choose SO's row well within the 300 ms the closed dialog keeps its content.
    // From that click on, record every state of the dialog and every text put into the page, painted or not.
    const timeline = await page.evaluate(async () => {
      const states: { at: number; title: string; text: string; skeleton: boolean }[] = [];
      const inserted: string[] = [];
      let clickedAt = 0;
      const observer = new MutationObserver((mutations) => {
        if (clickedAt === 0) return;
        for (const mutation of mutations) {
          // A node put in and taken out again before this callback shows its text only among the removed ones.
          for (const node of [...mutation.addedNodes, ...mutation.removedNodes]) inserted.push(node.textContent ?? '');
          if (mutation.type === 'characterData') inserted.push(mutation.target.textContent ?? '');
        }
        const modal = document.getElementById('detail-modal');
        if (!modal) return;
        states.push({
          at: performance.now() - clickedAt,
          title: modal.querySelector('h2')?.textContent ?? '',
          text: modal.textContent ?? '',
          skeleton: modal.querySelector('[aria-label="Loading stock data"]') !== null,
        });
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      await new Promise((resolve) => {
        addEventListener('popstate', resolve, { once: true });
        history.back();
      });
      // The dialog has closed: its content is out of the page, still held by the island.
      await new Promise((resolve) => {
        const closed = () => (document.getElementById('detail-modal') ? requestAnimationFrame(closed) : resolve(null));
        closed();
      });
      clickedAt = performance.now();
      document.querySelector<HTMLAnchorElement>('#all-signals a[data-detail-link][href="/signal/SO"]')!.click();
      await new Promise((resolve) => {
        const done = () => (document.querySelector('#detail-modal [data-testid="cscore"]') ? resolve(null) : setTimeout(done, 20));
        done();
      });
      observer.disconnect();
      return { states, inserted };
    });
    await expect(dialog.getByTestId('cscore')).toHaveAttribute('data-countup', '96.32');
    await expect(dialog).toContainText('Southern Company');
    await expect(dialog).not.toContainText('Pinnacle West');
    expect(timeline.states.length).toBeGreaterThan(0);
    for (const state of timeline.states) {
      expect(state.title, `at ${Math.round(state.at)} ms`).toMatch(/^SO/);
      expect(state.text, `at ${Math.round(state.at)} ms`).not.toContain('Pinnacle West');
    }
    for (const text of timeline.inserted) {
      expect(text).not.toContain('Pinnacle West');
      expect(text).not.toContain('96.81');
    }
    // The skeleton replaces the empty body only once the record has been on its way for 150 ms.
    const firstSkeleton = timeline.states.find((state) => state.skeleton);
    expect(firstSkeleton, 'the skeleton of a slow record').toBeDefined();
    expect(firstSkeleton!.at).toBeGreaterThanOrEqual(140);

    // Closed and reopened at once for the same ticker, the content is still there: no skeleton, no new fetch.
    const shownAtOnce = await page.evaluate(async () => {
      await new Promise((resolve) => {
        addEventListener('popstate', resolve, { once: true });
        history.back();
      });
      await new Promise((resolve) => {
        const closed = () => (document.getElementById('detail-modal') ? requestAnimationFrame(closed) : resolve(null));
        closed();
      });
      document.querySelector<HTMLAnchorElement>('#all-signals a[data-detail-link][href="/signal/SO"]')!.click();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return document.querySelector('#detail-modal [data-testid="cscore"]')?.getAttribute('data-countup') ?? null;
    });
    expect(shownAtOnce).toBe('96.32');
    expect(soRequests).toBe(1);
  });

  test('when the direct stock fetch fails, the record comes from the all-signals list', async ({ page }) => {
    // A failed request for one file cannot come from the server, which always has it: the request is aborted here.
    await page.route('**/api/stock/PNW', (route) => route.abort('connectionfailed'));
    const list = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/all-signals');
    await page.goto('/');
    await waitForModalIsland(page);
    await page.locator('#all-signals a[data-detail-link][href="/signal/PNW"]').click();
    const dialog = page.getByRole('dialog');
    expect((await list).status()).toBe(200);
    await expect(dialog.getByTestId('cscore')).toHaveText('96.81', { timeout: 5000 });
    await expect(dialog.getByText('Pinnacle West Capital: C-Score detail for the report of Nov 20, 2026')).toBeVisible();
  });

  test('a row for a ticker the report does not have ends on the Stock Not Found page', async ({ page }) => {
    // A list left open from an older report: its row names a ticker today's build lacks.
    await page.goto('/');
    await waitForModalIsland(page);
    await page.evaluate(() => {
      const row = document.querySelector<HTMLAnchorElement>('#all-signals a[data-detail-link][href="/signal/PNW"]')!;
      row.href = '/signal/ZZZZ';
      row.textContent = 'ZZZZ';
    });
    const navigation = page.waitForResponse((r) => new URL(r.url()).pathname === '/signal/ZZZZ' && r.request().resourceType() === 'document');
    await page.getByRole('link', { name: 'ZZZZ', exact: true }).click();
    expect((await navigation).status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stock Not Found');
    await expect(page.getByText('Please select a valid ticker.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
  });

  test('the trend card\'s loading, error and empty states, with Try Again and Refresh', async ({ page }) => {
    // The built trend file always answers: its failure and an empty trend are faked here.
    let answer: 'slow-error' | 'empty' | 'ok' = 'slow-error';
    await page.route('**/api/c-score-trend/*', async (route) => {
      if (answer === 'slow-error') {
        await new Promise((r) => setTimeout(r, 800));
        return route.fulfill({ status: 500, body: 'boom' });
      }
      if (answer === 'empty') return route.fulfill({ json: { ticker: 'PNW', reportDate: '2026-11-20', trend: [] } });
      return route.continue();
    });
    await page.goto('/');
    await waitForModalIsland(page);
    await page.locator('#all-signals a[data-detail-link][href="/signal/PNW"]').click();
    const chart = page.getByRole('dialog').getByTestId('trend-chart');
    await expect(chart).toHaveAttribute('data-state', 'loading');
    await expect(chart).toContainText('Loading trend data for PNW...');
    await expect(chart).toHaveAttribute('data-state', 'error', { timeout: 10_000 });
    await expect(chart).toContainText('Error loading trend data for PNW');
    await expect(chart).toContainText('Please try again later');
    answer = 'empty';
    await chart.getByRole('button', { name: 'Try Again' }).click();
    await expect(chart).toHaveAttribute('data-state', 'empty');
    await expect(chart).toContainText('No C-Score trend data available for PNW');
    await expect(chart).toContainText('No historical C-Score data available for PNW');
    answer = 'ok';
    await chart.getByRole('button', { name: 'Refresh' }).click();
    await expect(chart).toHaveAttribute('data-state', 'chart');
  });
});

test.describe('addresses', () => {
  test('/signal/pnw reaches PNW', async ({ page }) => {
    await page.goto('/signal/pnw');
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('PNW');
  });

  for (const path of ['/signal/NOPE', '/signal/%3Cscript%3E', '/signal/TOO-LONG-TICKER-1', '/signal']) {
    test(`${path} shows Stock Not Found with a 404 status`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Stock Not Found' })).toBeVisible();
      await expect(page.getByText('Please select a valid ticker.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
      await expect(page.getByText('Page not found')).toHaveCount(0);
    });
  }

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('/signal/ZZZZ shows Stock Not Found, from the server, with a 404 status', async ({ page }) => {
      const response = await page.goto('/signal/ZZZZ');
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(/^Stock Not Found \| /);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stock Not Found');
      await expect(page.getByText('Please select a valid ticker.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
      await expect(page.getByText('Page not found')).toHaveCount(0);
    });

    test('any other unknown path shows Page not found', async ({ page }) => {
      const response = await page.goto('/nope');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expect(page.getByText('Stock Not Found')).toHaveCount(0);
    });
  });
});

test.describe('with the demo provider', () => {
  test.use({ baseURL: DEMO_URL });

  test('demo prices say so, news and earnings show their empty states', async ({ page }) => {
    // No route is intercepted here: the quote, news and earnings come from the demo server's offline provider.
    await page.goto('/signal/AAPL');
    await expect(page.getByText(/Demo prices, not market data • Updated at/)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Demo price', { exact: true })).toBeVisible();
    // The header's price names its session too.
    await expect(page.getByTestId('header-session')).toHaveText(/^as of [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(page.getByTestId('header-price')).toHaveAttribute('title', /^as of [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(page.getByTestId('price-session')).toHaveText(/^as of [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await expect(page.getByText('No price information available for this ticker')).toHaveCount(0);
    // The news card loads when it comes into view.
    await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
    await expect(page.getByText('Loading news...')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByText(/Earnings: /)).toHaveCount(0);
  });
});

test.describe('first paint', () => {
  for (const viewport of [
    { width: 412, height: 823 },
    { width: 1350, height: 940 },
  ]) {
    test(`at ${viewport.width} px no script loads before the first contentful paint, a phone's first screen loads no React, nothing shifts while the live cards fill, no errors`, async ({ browser }) => {
      const context = await browser.newContext({ baseURL: POLYGON_URL, viewport });
      const page = await context.newPage();
      await page.addInitScript(() => {
        (window as unknown as { shifts: number[] }).shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) (window as unknown as { shifts: number[] }).shifts.push((entry as unknown as { value: number }).value);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto('/signal/PNW');
      await expect(page.getByTestId('header-price')).toHaveText('$120.47', { timeout: 15_000 });
      await expect(page.locator('#dt-live')).toHaveAttribute('data-hydrated', '');
      // The live header, the price and news cards and the page's behaviour are plain scripts: the page fetches no
      // React until the trend chart, its one React island, comes into view.
      const reactRenderer = await page.locator('astro-island[component-url*="TrendChart"]').getAttribute('renderer-url');
      const fetched = (url: string) => page.evaluate((u) => performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === u), url);
      expect(reactRenderer).toMatch(/^\/_astro\/.+\.js$/);
      if (viewport.width < 640) expect(await fetched(reactRenderer!)).toBe(false);
      // The cards are not React. (Once the chart's card is in view, its island starts, React with it.)
      expect(await page.locator('astro-island[component-url*="PriceCard"]').getAttribute('renderer-url')).not.toBe(reactRenderer);
      // On a phone the price and news cards are below the fold and load once scrolled into view.
      await page.getByTestId('price-card').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('price-card').getByText('Current Price')).toBeVisible({ timeout: 15_000 });
      await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
      await expect(newsItems(page)).toHaveCount(3, { timeout: 15_000 });
      const timing = await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]!.startTime;
        const scripts = performance.getEntriesByType('resource').filter((e) => /\.js(\?|$)/.test(e.name));
        return { fcp, scripts: scripts.length, early: scripts.filter((e) => e.startTime < fcp).map((e) => e.name) };
      });
      // The islands and page scripts exist (hydration happened) but every one was requested after the first paint.
      expect(timing.scripts).toBeGreaterThan(3);
      expect(timing.early).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
      await page.getByTestId('trend-chart').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('trend-chart')).toHaveAttribute('data-drawn', 'true', { timeout: 15_000 });
      // The chart may be drawn before its island runs (the first scroll's early start): React comes with the island.
      await expect.poll(() => fetched(reactRenderer!), { timeout: 15_000 }).toBe(true);
      // No error of any kind, hydration mismatches and failed requests included, but for the news image the fake
      // Polygon server points at port 1 on purpose (its placeholder is checked above).
      expect(errors.filter((text) => text !== 'Failed to load resource: net::ERR_UNSAFE_PORT')).toEqual([]);
      await context.close();
    });
  }
});
