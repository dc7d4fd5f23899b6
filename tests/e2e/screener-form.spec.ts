import { expect, test } from '@playwright/test';

// The screener's Sort select shows its longest choice whole ("Change vs yesterday, high to low"), on a desktop and
// on phones, without widening the page.

for (const [width, height] of [[1280, 800], [390, 844], [320, 700]] as const) {
  test(`the Sort select shows its longest choice whole at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/screener?sort=-change');
    const room = await page.locator('select[name="sort"]').evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const longest = Math.max(...[...select.options].map((o) => context.measureText(o.text).width));
      // The drop-down arrow takes about 1.5rem of the box beside the padding.
      const inner = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.5 * parseFloat(style.fontSize);
      return { longest, inner, pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    expect(room.inner).toBeGreaterThanOrEqual(room.longest);
    expect(room.pageOverflow).toBe(0);
  });
}
