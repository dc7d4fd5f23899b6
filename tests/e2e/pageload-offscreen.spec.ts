/**
 * The pages' load keeps off-screen work for later: /compare loads its stocks in a worker (the page itself requests no
 * schema module) and still works where no worker starts; the heatmap's off-screen sectors and the stock page's foot cards
 * are rendered once they near the view (content-visibility), and a tile's tooltip is not clipped by its sector.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { watch } from './page-checks';

const FIVE = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'];

/** The schema modules of the build (zod and the files' schemas), by their chunks' names. */
const SCHEMA_CHUNK = /\/_astro\/(schemas|api-responses|ledger-schema|locked-ticker)\.[\w-]+\.js$/;

/** Whether `locator`'s element is rendered: false while it sits in a content-visibility subtree the browser skips. */
function rendered(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
}

async function pageScripts(page: Page): Promise<string[]> {
  return page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
}

test.describe('/compare', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('5 stocks load in a worker: the table fills in order while the page requests no schema module', async ({ page }) => {
    const errors = await watch(page);
    await page.goto(`/compare?t=${FIVE.join(',')}`);
    await expect(page.getByTestId('compare')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-lines', '5');
    const rows = page.getByTestId('compare-table').locator('tbody tr');
    expect(await rows.evaluateAll((all) => all.map((r) => [(r as HTMLElement).dataset.t, (r as HTMLElement).dataset.state]))).toEqual(FIVE.map((t) => [t, 'ready']));
    await expect(rows.first().getByTestId('compare-cscore')).toContainText(/^-?\d+(\.\d+)? (Bullish|Bearish|Neutral)$/);
    expect(page.workers().map((w) => w.url()).some((url) => /\/_astro\/load-worker[\w.-]*\.js$/.test(url)), 'the comparison worker runs').toBe(true);
    expect((await pageScripts(page)).filter((url) => SCHEMA_CHUNK.test(new URL(url).pathname))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('where no worker starts, the stocks load in the page', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { Worker: unknown }).Worker = function NoWorker() {
        throw new Error('workers are off');
      };
    });
    await page.goto('/compare?t=NVDA,AAPL,ZZZZ');
    await expect(page.getByTestId('compare')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-lines', '2');
    await expect(page.getByTestId('compare-table').locator('tr[data-t="ZZZZ"]')).toContainText('ZZZZ is not in the latest report.');
    await expect(page.getByTestId('compare-table').locator('tr[data-t="NVDA"]')).toHaveAttribute('data-state', 'ready');
  });
});

test.describe('the heatmap', () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: a sector far below is rendered once it nears the view, and its chip jumps to it with no shift`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      const errors = await watch(page);
      await page.goto('/heatmap');
      const sectors = page.locator('.heat-sector');
      const first = sectors.first();
      // The second to last: the last is always laid out, so the footer under it never moves.
      const far = sectors.nth(-2);
      expect(await rendered(first.locator('.tile').first())).toBe(true);
      expect(await rendered(far.locator('.tile').first())).toBe(false);
      const id = await far.getAttribute('aria-labelledby');
      await page.getByRole('navigation', { name: 'Sectors' }).locator(`a[href="#${id}"]`).click();
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      await expect(page.locator(`#${id}`)).toBeInViewport();
      await expect.poll(() => rendered(far.locator('.tile').first())).toBe(true);
      await expect(page.locator('.tile')).toHaveCount(503);
      // Shifts a reader did not cause (the jump's own are input's): none, at load or after.
      expect((await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).reduce((sum, v) => sum + v, 0)).toBe(0);
      expect(errors).toEqual([]);
    });
  }

  test('the tooltip of a tile in a sector\'s first row shows whole above it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 844 });
    await page.goto('/heatmap');
    const tile = page.locator('.heat-sector').nth(1).locator('.tile').first();
    await tile.scrollIntoViewIfNeeded();
    await tile.hover();
    const tip = tile.locator('.tip');
    const box = (await tip.boundingBox())!;
    expect(box.height).toBeGreaterThan(10);
    // The tooltip's top edge takes the pointer: it is painted, not clipped away by the sector.
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('.tip') !== null, [box.x + box.width / 2, box.y + 2]);
    expect(hit).toBe(true);
  });
});

test('the stock page\'s foot cards are rendered once they near the view', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/signal/AAPL');
  const embed = page.locator('.dt-below').last();
  expect(await rendered(embed)).toBe(true);
  expect(await rendered(embed.locator('.card, section').first())).toBe(false);
  await embed.scrollIntoViewIfNeeded();
  await expect.poll(() => rendered(embed.locator('.card, section').first())).toBe(true);
});
