import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatDate } from '../../src/lib/domain/text/format';
import { TREND_PLOT_INSETS as INSETS } from '../../src/lib/domain/trend/trend-chart';

// A chart that tells the truth, search that forgives, a heatmap that fits. Against the
// demo app (the offline demo provider: its daily bars are demo prices). The sample's latest report is 2026-11-20;
// PNW is bullish there (96.81, the day before 93.29; averages 91.85 over 7 days, 91.90 over 14).

/** Opens a page in a theme (cardify-theme is read before the first paint). */
async function openIn(page: Page, path: string, theme: 'dark' | 'light') {
  await page.addInitScript((t) => localStorage.setItem('cardify-theme', t), theme);
  await page.goto(path);
}

/** The chart's focusable box, once the island runs. */
async function liveChart(page: Page): Promise<Locator> {
  const chart = page.getByTestId('trend-chart');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  return chart.getByRole('group', { name: /^C-Score trend for PNW/ });
}

/** Where a fraction of the plot's width lies on the page, at the plot's middle height. */
async function plotPoint(box: Locator, x: number): Promise<{ x: number; y: number }> {
  const b = (await box.boundingBox())!;
  return { x: b.x + INSETS.left + x * (b.width - INSETS.left - INSETS.right), y: b.y + b.height / 2 };
}

/** The tooltip's heading, its box, and the centre of the active point's dot. */
async function tooltipAt(page: Page) {
  const tip = page.getByTestId('trend-tooltip');
  await expect(tip).toBeVisible();
  const heading = (await tip.locator('div').first().textContent())!;
  const dot = (await page.getByTestId('trend-active-dot').boundingBox())!;
  return { heading, box: (await tip.boundingBox())!, dotX: dot.x + dot.width / 2 };
}

const DAY_MS = 86_400_000;

for (const theme of ['dark', 'light'] as const) {
  test.describe(`the trend chart (${theme} theme)`, () => {
    test('the tooltip shows the day under the mouse, beside it, at every axis date and between them', async ({ page }) => {
      await openIn(page, '/signal/PNW', theme);
      const box = await liveChart(page);
      const ticks = box.locator('[data-date]');
      await expect(ticks).toHaveCount(4);
      for (const tick of await ticks.all()) {
        const [date, x] = [(await tick.getAttribute('data-date'))!, Number(await tick.getAttribute('data-x'))];
        const at = await plotPoint(box, x);
        await page.mouse.move(at.x, at.y);
        const shown = await tooltipAt(page);
        expect(shown.heading, `pointer over ${date}`).toBe(formatDate(date));
        // The box sits over its point (the bug: 370 px away), and the point is under the pointer.
        expect(shown.box.x).toBeLessThanOrEqual(at.x);
        expect(shown.box.x + shown.box.width).toBeGreaterThanOrEqual(at.x);
        expect(Math.abs(shown.dotX - at.x)).toBeLessThan(2);
      }
      // Between the axis dates: the day nearest the pointer on the calendar time axis (weekends have no report).
      const [first, last] = [await ticks.first().getAttribute('data-date'), await ticks.last().getAttribute('data-date')];
      const span = Date.parse(last!) - Date.parse(first!);
      for (const x of [0.13, 0.37, 0.61, 0.88]) {
        const at = await plotPoint(box, x);
        await page.mouse.move(at.x, at.y);
        const { heading, dotX } = await tooltipAt(page);
        const under = Date.parse(first!) + x * span;
        expect(Math.abs(Date.parse(`${heading} UTC`) - under), `pointer at ${x} of the plot shows ${heading}`).toBeLessThanOrEqual(2 * DAY_MS);
        expect(Math.abs(dotX - at.x)).toBeLessThanOrEqual((2 * DAY_MS * ((await box.boundingBox())!.width - INSETS.left - INSETS.right)) / span);
      }
      await page.mouse.move(0, 0);
      await expect(page.getByTestId('trend-tooltip')).toHaveCount(0);
    });

    test('arrow keys move between days and announce the value; the averages come first, as the spec orders them', async ({ page }) => {
      await openIn(page, '/signal/PNW', theme);
      const box = await liveChart(page);
      const tip = page.getByTestId('trend-tooltip');
      const spoken = box.locator('[aria-live]');
      await box.focus();
      await expect(tip).toContainText('Nov 20, 2026');
      await expect(tip).toContainText('Current day: 96.81');
      await page.keyboard.press('ArrowLeft');
      await expect(tip).toContainText('Nov 19, 2026');
      await expect(tip).toContainText('Previous day: 93.29');
      await expect(spoken).toHaveText(/^Nov 19, 2026: Previous day: 93\.29/);
      await page.keyboard.press('Home');
      await expect(tip).toContainText('14-Day Average');
      await expect(spoken).toHaveText(/^14-Day Average: 14D avg\.: 91\.90/);
      await page.keyboard.press('ArrowRight');
      await expect(spoken).toHaveText(/^7-Day Average: 7D avg\.: 91\.85/);
      await page.keyboard.press('End');
      await expect(spoken).toHaveText(/^Nov 20, 2026: Current day: 96\.81/);
      await page.keyboard.press('Escape');
      await expect(tip).toHaveCount(0);
    });
  });
}

for (const [width, theme] of [[320, 'dark'], [390, 'light'], [640, 'dark'], [640, 'light']] as const) {
  test.describe(`the trend chart at ${width} px (${theme} theme), by touch`, () => {
    test.use({ viewport: { width, height: 844 }, hasTouch: true });

    test('a tap shows the tapped day, inside the screen; a tap elsewhere closes it', async ({ page }) => {
      await openIn(page, '/signal/PNW', theme);
      const box = await liveChart(page);
      for (const tick of await box.locator('[data-date]').all()) {
        const at = await plotPoint(box, Number(await tick.getAttribute('data-x')));
        await page.touchscreen.tap(at.x, at.y);
        const shown = await tooltipAt(page);
        expect(shown.heading).toBe(formatDate((await tick.getAttribute('data-date'))!));
        expect(Math.abs(shown.dotX - at.x)).toBeLessThan(2);
        expect(shown.box.x).toBeGreaterThanOrEqual(0);
        expect(shown.box.x + shown.box.width).toBeLessThanOrEqual(width);
      }
      await page.touchscreen.tap(5, 300);
      await expect(page.getByTestId('trend-tooltip')).toHaveCount(0);
    });
  });
}

test.describe('the trend chart on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the static first paint has the live chart\'s axes, thresholds and scale; the average labels fit beside the plot', async ({ page }) => {
    await page.goto('/signal/PNW');
    const chart = page.getByTestId('trend-chart');
    // Below the first screen the island has not run: what shows is the chart drawn at build time.
    await expect(chart).toHaveAttribute('data-drawn', 'false');
    const drawing = () =>
      chart.evaluate((el) => {
        const wrap = el.querySelector('[role=group]')!.getBoundingClientRect();
        const at = (e: Element) => {
          const r = e.getBoundingClientRect();
          return [Math.round(r.left - wrap.left), Math.round(r.top - wrap.top), Math.round(r.width), Math.round(r.height), e.textContent];
        };
        return {
          path: el.querySelector('svg path')!.getAttribute('d'),
          labels: [...el.querySelectorAll('[data-date], [data-average-label], [data-average]')].map(at),
          thresholds: [...el.querySelectorAll('[role=img] > div > div > div')].slice(0, 3).map(at),
        };
      });
    const before = await drawing();
    expect(before.labels.map((l) => l[4])).toEqual(expect.arrayContaining(['14D Avg', '7D Avg', '8/28', '11/20']));
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('data-drawn', 'true');
    expect(await drawing()).toEqual(before);

    // The average labels: in the gutter left of the plot (never over the line), wholly inside the chart, apart.
    const wrap = (await chart.getByRole('group').boundingBox())!;
    const labels = await Promise.all((await chart.locator('[data-average-label]').all()).map(async (l) => ({ box: (await l.boundingBox())!, fits: await l.evaluate((e) => e.scrollWidth <= e.clientWidth) })));
    for (const { box, fits } of labels) {
      expect(fits).toBe(true);
      expect(box.x).toBeGreaterThanOrEqual(wrap.x);
      expect(box.x + box.width).toBeLessThanOrEqual(wrap.x + INSETS.left);
      expect(box.y).toBeGreaterThanOrEqual(wrap.y);
    }
    const [a, b] = labels.map((l) => l.box);
    expect(a!.y + a!.height <= b!.y || b!.y + b!.height <= a!.y).toBe(true);
  });

  test('the price panel: the demo provider\'s daily closes under the line, labelled "Demo prices"', async ({ page }) => {
    await page.goto('/signal/PNW');
    const chart = page.getByTestId('trend-chart');
    await chart.scrollIntoViewIfNeeded();
    const panel = page.getByTestId('price-panel');
    await expect(panel).toHaveAttribute('data-state', 'ready');
    await expect(panel.getByText('Demo prices')).toBeVisible();
    await expect(panel.getByRole('img')).toHaveAttribute('aria-label', /^Daily closes of PNW from \w{3} \d+, 2026 to Nov 20, 2026: low \$[\d,.]+, high \$[\d,.]+ \(demo prices\)\.$/);
    // One time axis: the panel's plot spans the chart's plot, and its last close sits at the report date's x.
    const plot = (await chart.getByRole('group').boundingBox())!;
    const prices = (await panel.locator('svg').boundingBox())!;
    expect(Math.abs(prices.x - (plot.x + INSETS.left))).toBeLessThanOrEqual(2);
    expect(Math.abs(prices.x + prices.width - (plot.x + plot.width - INSETS.right))).toBeLessThanOrEqual(2);
  });
});

test.describe('search that forgives', () => {
  test('"nvdia" finds NVDA with its score and badge, Enter opens it; a query that matches nothing offers the closest', async ({ page }) => {
    await page.goto('/heatmap');
    const box = page.getByRole('combobox', { name: 'Search tickers and companies' });
    await box.fill('nvdia');
    const first = page.getByRole('option').first();
    await expect(first).toHaveText(/^NVDA\s+Nvidia\s+-?\d+\.\d\d\s(Bullish|Bearish|Neutral)$/);
    await expect(first.locator('.badge')).toBeVisible();
    await box.fill('coca cola');
    await expect(page.getByRole('option').first()).toHaveText(/^KO\s/);
    await box.fill('aple');
    await expect(page.getByRole('option').first()).toHaveText(/^AAPL\s/);
    await box.fill('aplx');
    await expect(page.getByText('No ticker or company matches. Closest matches:')).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(5);
    // A query that resembles nothing offers nothing.
    await box.fill('qqqxz');
    await expect(page.getByText('No ticker or company matches.', { exact: true })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(0);
    await box.fill('nvdia');
    await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/signal\/NVDA$/);
  });

  test('an empty list offers the closest matches and "Clear filters"', async ({ page }) => {
    await page.goto('/all-signals?q=aplx&direction=bullish');
    const noMatch = page.getByText('No stocks match these filters.');
    await expect(noMatch).toBeVisible();
    const closest = page.getByRole('group', { name: 'Closest matches' }).getByRole('link');
    await expect(closest.first()).toBeVisible();
    expect(await closest.count()).toBeLessThanOrEqual(5);
    await expect(closest.first()).toHaveAttribute('href', /^\/signal\/[A-Z.]+$/);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(noMatch).toBeHidden();
    await expect(page).toHaveURL(/\/all-signals$/);
    await expect(page.locator('#all-signals tbody tr:not([hidden])').first()).toBeVisible();
    await expect(page.locator('form[data-table-filters] input[name=q]')).toHaveValue('');
  });

  test('/signal/NVDAA repeats the ticker, offers the search box with it, and suggests NVDA first', async ({ page }) => {
    const response = await page.goto('/signal/NVDAA');
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stock Not Found');
    await expect(page.getByText('There is no stock NVDAA in the latest report.')).toBeVisible();
    await expect(page.locator('#not-found-search')).toHaveValue('NVDAA');
    const suggestions = page.getByRole('region', { name: 'Closest tickers' }).getByRole('link');
    await expect(suggestions.first()).toHaveAttribute('href', '/signal/NVDA');
    await expect(suggestions.first()).toContainText(/^NVDA\s+Nvidia\s+-?\d+\.\d\d\s(Bullish|Bearish|Neutral)$/);
    await suggestions.first().click();
    await expect(page).toHaveURL(/\/signal\/NVDA$/);
  });
});

test.describe('the heatmap', () => {
  test('on a phone: compact tiles show the whole market in at most 3 screens; the sector chips stay on screen and jump', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/heatmap');
    await expect(page.locator('.tile')).toHaveCount(503);
    const tiles = (await page.locator('[data-heat-sectors]').boundingBox())!;
    expect(tiles.height).toBeLessThanOrEqual(3 * 844);
    // Ticker and score only, uncut.
    const tile = page.getByRole('link', { name: /^AAPL / });
    expect(await tile.evaluate((e) => [...e.children].filter((c) => getComputedStyle(c).clipPath === 'none').map((c) => c.textContent))).toEqual(['AAPL', '-23.74']);
    expect(await tile.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const chips = page.getByRole('navigation', { name: 'Sectors' });
    await page.mouse.wheel(0, 1800);
    await expect(chips).toBeInViewport();
    await chips.getByRole('link', { name: /^Utilities/ }).click();
    await expect(page).toHaveURL(/#utilities$/);
    const heading = page.getByRole('heading', { name: /^Utilities/ });
    await expect(heading).toBeInViewport();
    // The heading is not under the chips.
    const [chipBox, headingBox] = [(await chips.boundingBox())!, (await heading.boundingBox())!];
    expect(headingBox.y).toBeGreaterThanOrEqual(chipBox.y + chipBox.height - 1);
  });

  test('a tile\'s tooltip names the company, the score and the signal', async ({ page }) => {
    await page.goto('/heatmap');
    const tile = page.getByRole('link', { name: /^AAPL / });
    await tile.hover();
    const tip = tile.locator('.tip');
    await expect(tip).toBeVisible();
    await expect(tip).toHaveText('Apple Inc., C-Score -23.74, Neutral');
  });
});

test('in the detail dialog the chart fetches its trend, and Escape closes its tooltip first, then the dialog', async ({ page }) => {
  await page.goto('/all-signals');
  await expect(page.locator('astro-island[component-url*="DetailModal"]')).not.toHaveAttribute('ssr', /.*/, { timeout: 20_000 });
  await page.locator('a[data-detail-link][href="/signal/PNW"]').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const chart = dialog.getByTestId('trend-chart');
  await expect(chart).toHaveAttribute('data-state', 'chart');
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  await chart.getByRole('group', { name: /^C-Score trend for PNW/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByTestId('trend-tooltip')).toContainText('Previous day: 93.29');
  await page.keyboard.press('Escape');
  await expect(dialog.getByTestId('trend-tooltip')).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
