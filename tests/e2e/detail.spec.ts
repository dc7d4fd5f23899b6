import { expect, test, type Page } from '@playwright/test';

// Tickers of the sample's latest report (2026-11-20), one per classification:
//   PNW  bullish, a top ticker, up from 93.29; APTV bearish, down from -75.40; MMM neutral, up from -32.11.
const PNW = {
  ticker: 'PNW', companyName: 'Pinnacle West Capital', cScore: 96.81, yesterdayCScore: 93.29, reportDate: '2026-11-20', isTopTicker: true,
  deltaScore: 56.86, accuracyScore: 50, marketScore: 94.23, relevanceScore: 50, avgCScoreL7D: 91.85, avgCScoreL14D: 91.9,
  countL7DWithSignal: 7, countL14DWithSignal: 14,
};

// Dark theme (the default): Tailwind's green-400, red-400 and gray-400 for the score, -600/-500 for the bar.
const GREEN = 'oklch(0.792 0.209 151.711)';
const RED = 'oklch(0.704 0.191 22.216)';
const GREY = 'oklch(0.707 0.022 261.325)';
const BAR = { bullish: 'oklch(0.627 0.194 149.214)', bearish: 'oklch(0.577 0.245 27.325)', neutral: 'oklch(0.551 0.027 264.364)' };

/** Answers the live routes of another issue with fixed data, so the cards' filled states can be checked. */
async function fakeLiveRoutes(page: Page, options: { quote?: 'full' | 'minimal' | 'error' } = {}) {
  const quote = options.quote ?? 'full';
  await page.route('**/api/stock-price/*', (route) => {
    if (quote === 'error') return route.fulfill({ status: 503, body: 'provider down' });
    const base = {
      symbol: 'PNW', regularMarketPrice: 88.5, regularMarketChange: 1.25, regularMarketChangePercent: 1.4327,
      regularMarketPreviousClose: 87.25, regularMarketOpen: 87.5, regularMarketDayLow: 87.1, regularMarketDayHigh: 88.9,
      regularMarketVolume: 1234567, marketCap: 9.87e9, fetchedAt: '2026-11-21T15:30:00.000Z', isDemo: true,
    };
    const body = quote === 'full' ? { ...base, trailingPE: 17.234, eps: 5.12, dividendYield: 0.0391, beta: 0.52 } : base;
    return route.fulfill({ json: body });
  });
  await page.route('**/api/earnings-date/*', (route) => route.fulfill({ json: { earningsAvailable: true, earningsDate: '2027-01-05' } }));
  await page.route('**/api/polygon/news/**', (route) =>
    route.fulfill({
      json: {
        results: [1, 2, 3, 4, 5].map((n) => ({
          id: `n${n}`,
          title: `Article ${n}`,
          article_url: `https://news.example.com/${n}`,
          image_url: n === 1 ? 'https://127.0.0.1:1/broken.png' : undefined,
          published_utc: '2026-11-19T12:00:00Z',
          publisher: { name: 'Example Wire' },
          description: `Description ${n}`,
        })),
      },
    }),
  );
}

test.describe('the stock detail page', () => {
  test('a bullish top ticker: badge, star, texts, colours, bar, arrow, averages and meta tags', async ({ page, request }) => {
    await fakeLiveRoutes(page);
    const response = await page.goto('/signal/PNW');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('C-Score Signals PNW');
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

    // Meta: description, canonical, Open Graph, Twitter, JSON-LD and the share image.
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /PNW .*C-Score 96\.81, Bullish, report of Nov 20, 2026/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/signal\/PNW\/?$/);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image).toMatch(/\/og\/signal\/PNW\.png$/);
    const png = await request.get(new URL(image!).pathname);
    expect(png.headers()['content-type']).toBe('image/png');
    const bytes = await png.body();
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    const types = ld['@graph'].map((node: { '@type': string }) => node['@type']);
    expect(types).toEqual(['WebPage', 'Corporation', 'BreadcrumbList']);
    expect(ld['@graph'][1].tickerSymbol).toBe('PNW');
    const sitemap = await request.get('/sitemap-0.xml');
    expect(await sitemap.text()).toContain('/signal/PNW/');
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

  test('a neutral ticker: grey, neutral text, and the live cards\' empty and error states', async ({ page }) => {
    await fakeLiveRoutes(page, { quote: 'error' });
    await page.goto('/signal/MMM');
    await expect(page.locator('h1 .badge')).toHaveText('Neutral');
    await expect(page.getByTestId('cscore')).toHaveText('-25.72', { timeout: 5000 });
    await expect(page.getByTestId('cscore')).toHaveCSS('color', GREY);
    await expect(page.getByTestId('score-bar-fill')).toHaveCSS('background-color', BAR.neutral);
    await expect(page.getByTestId('vs-yesterday')).toContainText('▲');
    await expect(page.getByTestId('score-bar-fill')).toHaveAttribute('style', /left:\s*37\.14%;\s*width:\s*12\.86%/);
    await expect(page.getByTestId('explanation-neutral')).toContainText('C-Score between -65 and 65');
    await expect(page.getByTestId('explanation-top')).toHaveCount(0);
    // Spec: the price card hides when the quote fails.
    await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('price-card')).toHaveCount(0);
  });

  test('live cards: price with every field and its source, earnings badge, 3 of 5 news with an image fallback, copy and watch', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await fakeLiveRoutes(page);
    await page.goto('/signal/PNW');
    await expect(page.getByTestId('header-price')).toHaveText('$88.50');
    await expect(page.getByTestId('header-change')).toHaveText('▲ +1.25 (+1.43%)');
    await expect(page.getByTestId('earnings-badge')).toHaveText('Earnings: Jan 5, 2027');
    const price = page.getByTestId('price-card');
    await price.scrollIntoViewIfNeeded();
    for (const text of ['Current Price$88.50', 'Day Change+1.43% (+1.25)', 'Prev. Close$87.25', 'Daily Range$87.10 - $88.90', 'Volume1,234,567', 'Market Cap$9.87B', 'P/E Ratio17.23', 'EPS$5.12', 'Dividend Yield3.91%', 'Beta0.52']) {
      await expect(price).toContainText(text);
    }
    await expect(page.getByTestId('price-source')).toContainText('Demo prices, not market data • Updated at');
    await expect(price.getByRole('link', { name: /Yahoo/ })).toHaveAttribute('href', 'https://finance.yahoo.com/quote/PNW');
    await page.getByRole('heading', { name: 'Latest News' }).scrollIntoViewIfNeeded();
    await expect(page.getByRole('link', { name: /^Article \d$/ })).toHaveCount(3);
    await expect(page.getByTestId('news-placeholder')).toHaveCount(3);

    // Astro drops an island's ssr attribute once it has hydrated.
    await expect(page.locator('astro-island:has([data-testid=watch-toggle])')).not.toHaveAttribute('ssr', /.*/);
    await page.getByRole('button', { name: 'Copy link to this page' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/signal\/PNW$/);
    const watch = page.getByTestId('watch-toggle');
    await expect(watch).toHaveAttribute('aria-pressed', 'false');
    await watch.click();
    await expect(watch).toHaveAttribute('aria-pressed', 'true');
    await expect(watch).toHaveText(/Watching/);
    expect(await page.evaluate(() => localStorage.getItem('watched-tickers'))).toBe('["PNW"]');
  });

  test('a quote without the optional figures shows no P/E, EPS, yield or beta', async ({ page }) => {
    await fakeLiveRoutes(page, { quote: 'minimal' });
    await page.goto('/signal/PNW');
    const price = page.getByTestId('price-card');
    await price.scrollIntoViewIfNeeded();
    await expect(price).toContainText('Market Cap$9.87B');
    for (const label of ['P/E Ratio', 'EPS', 'Dividend Yield', 'Beta']) await expect(price).not.toContainText(label);
  });

  test('the trend chart: drawn from the embedded data with no request, coloured by the score, with tooltips', async ({ page }) => {
    const trendRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/c-score-trend/')) trendRequests.push(r.url());
    });
    await page.goto('/signal/PNW');
    const chart = page.getByTestId('trend-chart');
    await expect(chart).toHaveAttribute('data-state', 'chart');
    // First paint: the static drawing of the reserved 180 px.
    await expect(chart.locator('svg path')).toHaveCount(1);
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('data-drawn', 'true');
    await expect(chart).toHaveAttribute('data-color', 'bullish');
    await expect(chart.locator('canvas').first()).toBeVisible();
    expect((await chart.boundingBox())!.height).toBe(180);
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', 'C-Score trend for PNW over 60 reports: current day 96.81, 7-day average 91.85, 14-day average 91.90.');
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect(page.getByTestId('trend-tooltip')).toContainText(/C-Score|Previous day|Current day/);
    expect(trendRequests).toEqual([]);
  });
});

/** The modal island listens for row clicks once hydrated (client:idle); Astro then drops the island's ssr attribute. */
async function waitForModalIsland(page: Page) {
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
}

test.describe('the detail modal', () => {
  async function fakeStockRoutes(page: Page) {
    // The direct stock route fails, so the record comes from the all-signals list (spec "Detail data sourcing").
    await page.route('**/api/stock/*', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.route('**/api/all-signals', (route) => route.fulfill({ json: [{ ...PNW, ticker: 'pnw' }, { ...PNW, ticker: 'ZZZ' }] }));
  }

  test('a row opens the dialog at /signal/{T}; Escape and the close button close it and focus returns', async ({ page }) => {
    await fakeStockRoutes(page);
    await fakeLiveRoutes(page);
    await page.route('**/api/c-score-trend/*', (route) =>
      route.fulfill({ json: { ticker: 'PNW', reportDate: '2026-11-20', trend: [{ date: '2026-11-19', cScore: 93.29, isYesterday: true }, { date: '2026-11-20', cScore: 96.81, isCurrentDay: true }] } }),
    );
    await page.goto('/');
    await waitForModalIsland(page);
    const link = page.locator('a[data-detail-link][href="/signal/PNW"]');
    await link.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/signal\/PNW$/);
    await expect(dialog.getByRole('heading', { name: /PNW/ })).toBeVisible();
    await expect(page).toHaveTitle('C-Score Signals PNW');
    await expect(dialog).toHaveAttribute('aria-describedby', /.+/);
    await expect(dialog.getByTestId('cscore')).toHaveText('96.81', { timeout: 5000 });
    await expect(dialog.getByTestId('earnings-badge')).toHaveText('Earnings: Jan 5');
    await expect(dialog.getByTestId('trend-chart')).toHaveAttribute('data-state', 'chart');
    expect((await dialog.getByTestId('trend-chart').boundingBox())!.height).toBe(225);
    await expect(dialog.getByTestId('price-card')).toContainText('Open$87.50');
    await expect(dialog.getByTestId('price-card')).toContainText('Last Updated');
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

  test('the trend card\'s loading, error and empty states, with Try Again and Refresh', async ({ page }) => {
    await fakeStockRoutes(page);
    let answer: 'slow-error' | 'empty' | 'ok' = 'slow-error';
    await page.route('**/api/c-score-trend/*', async (route) => {
      if (answer === 'slow-error') {
        await new Promise((r) => setTimeout(r, 800));
        return route.fulfill({ status: 500, body: 'boom' });
      }
      if (answer === 'empty') return route.fulfill({ json: { ticker: 'PNW', reportDate: '2026-11-20', trend: [] } });
      return route.fulfill({ json: { ticker: 'PNW', reportDate: '2026-11-20', trend: [{ date: '2026-11-20', cScore: 96.81, isCurrentDay: true }] } });
    });
    await page.goto('/');
    await waitForModalIsland(page);
    await page.locator('a[data-detail-link][href="/signal/PNW"]').click();
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
    await expect(page).toHaveURL(/\/signal\/PNW\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('PNW');
  });

  for (const path of ['/signal/NOPE', '/signal/%3Cscript%3E', '/signal/TOO-LONG-TICKER-1']) {
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

test('with the real server and the demo provider: demo prices say so, news and earnings show their empty states', async ({ page }) => {
  // No route is intercepted here: the quote, news and earnings come from the running server's demo provider.
  await page.goto('/signal/AAPL');
  await expect(page.getByText(/Demo prices, not market data • Updated at/)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No price information available for this ticker')).toHaveCount(0);
  await expect(page.getByText('Loading news...')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByText(/Earnings: /)).toHaveCount(0);
});
