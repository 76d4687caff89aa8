import { existsSync, readFileSync } from "node:fs";

import { expect, test, type Page } from "@playwright/test";

/**
 * A whole page compared with its baseline, as `toHaveScreenshot(name, { fullPage: true })`, but
 * tolerant of a page one pixel taller or shorter than when the baseline was made: a layout of
 * fractional heights (rem, line heights) rounds to a whole page height one pixel either way, and
 * did so on a busy machine. Playwright fails on any size difference, so the comparison leaves
 * out the page's last pixel row: the baseline is the page less that row, and each check compares
 * that many rows from the top. A page more than one pixel taller or shorter fails, saying so.
 */
export async function expectFullPageScreenshot(page: Page, name: string): Promise<void> {
  const height = await fullPageHeight(page);
  const info = test.info();
  const baseline = info.snapshotPath(name, { kind: "screenshot" });
  // `--update-snapshots` (changed, or all): the baseline is made anew from the page as it is now.
  const remaking = ["all", "changed"].includes(info.config.updateSnapshots) || !existsSync(baseline);
  const rows = remaking ? height - 1 : pngHeight(readFileSync(baseline));
  expect(
    Math.abs(height - 1 - rows),
    `${name}: the page is ${height} px tall, its baseline ${rows + 1} px (more than a one-pixel reflow: update the baseline if this is intended)`,
  ).toBeLessThanOrEqual(1);
  const { width } = page.viewportSize() ?? { width: 0 };
  await expect(page).toHaveScreenshot(name, { fullPage: true, clip: { x: 0, y: 0, width, height: rows } });
}

/** The page's full height as Playwright measures it for a full-page screenshot (its _fullPageSize). */
function fullPageHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { body, documentElement: root } = document;
    return Math.max(
      body.scrollHeight,
      root.scrollHeight,
      body.offsetHeight,
      root.offsetHeight,
      body.clientHeight,
      root.clientHeight,
    );
  });
}

/** The height of a PNG image: its IHDR chunk, right after the 8-byte signature (width, then height). */
function pngHeight(png: Buffer): number {
  return png.readUInt32BE(20);
}
