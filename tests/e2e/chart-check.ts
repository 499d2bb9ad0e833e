import type { Locator } from '@playwright/test';
import { expect } from './fixtures';

/**
 * What a drawn uPlot chart (the console's and the owner's Chart) shows, read from its canvas
 * pixels: where ink starts on the left (a Y label cut at the edge starts at column 0), whether
 * anything is drawn under the plot (the X axis's date labels), and where the pixels of `color`
 * (a series' points and line) fall against the plot box and its top gridline.
 */
export async function chartPixels(chart: Locator, color: string) {
  const canvas = chart.locator('.chart-canvas canvas').first();
  await expect(canvas).toBeVisible();
  return canvas.evaluate((el, hex) => {
    const c = el as HTMLCanvasElement;
    const over = c.parentElement!.querySelector<HTMLElement>('.u-over')!;
    const scale = c.width / c.getBoundingClientRect().width;
    const box = over.getBoundingClientRect();
    const origin = c.getBoundingClientRect();
    const plot = {
      left: Math.round((box.left - origin.left) * scale),
      top: Math.round((box.top - origin.top) * scale),
      right: Math.round((box.right - origin.left) * scale),
      bottom: Math.round((box.bottom - origin.top) * scale),
    };
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const at = (x: number, y: number) => data.slice((y * c.width + x) * 4, (y * c.width + x) * 4 + 4);
    const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    let leftInk = c.width;
    let belowInk = 0;
    const ofColor: [number, number][] = [];
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const [r = 0, g = 0, b = 0, a = 0] = at(x, y);
        if (a < 40) continue;
        if (x < plot.left && y >= plot.top && y <= plot.bottom) leftInk = Math.min(leftInk, x);
        // Under the plot, past the tick marks: the X axis's labels.
        if (y > plot.bottom + 12 * scale) belowInk++;
        if (a > 200 && Math.abs(r - want[0]!) + Math.abs(g - want[1]!) + Math.abs(b - want[2]!) < 40)
          ofColor.push([x, y]);
      }
    }
    // Gridlines: rows inside the plot where most of the width carries faint ink.
    const gridRows: number[] = [];
    for (let y = plot.top; y <= plot.bottom; y++) {
      let faint = 0;
      for (let x = plot.left; x < plot.right; x++) if ((at(x, y)[3] ?? 0) > 0) faint++;
      if (faint > (plot.right - plot.left) * 0.6) gridRows.push(y);
    }
    const ys = ofColor.map(([, y]) => y);
    const xs = ofColor.map(([x]) => x);
    return {
      scale,
      plot,
      leftInk,
      belowInk,
      topGridline: gridRows.length ? Math.min(...gridRows) : null,
      colored: ofColor.length,
      colorBox: ofColor.length
        ? { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) }
        : null,
    };
  }, color);
}

/**
 * The chart's promises: Y labels whole (no ink at the canvas's left edge), dates under the plot,
 * and the series of `color` drawn inside the plot, its centre not above the top gridline.
 */
export async function expectReadableChart(chart: Locator, color: string, what: string) {
  const px = await chartPixels(chart, color);
  expect(px.leftInk, `${what}: Y labels start inside the canvas`).toBeGreaterThanOrEqual(2);
  expect(px.belowInk, `${what}: date labels under the plot`).toBeGreaterThan(20);
  expect(px.colorBox, `${what}: the series is drawn`).not.toBeNull();
  const box = px.colorBox!;
  expect(box.top, `${what}: inside the plot`).toBeGreaterThanOrEqual(px.plot.top);
  expect(box.bottom, `${what}: inside the plot`).toBeLessThanOrEqual(px.plot.bottom);
  expect(box.left, `${what}: inside the plot`).toBeGreaterThanOrEqual(px.plot.left);
  expect(box.right, `${what}: inside the plot`).toBeLessThanOrEqual(px.plot.right);
  expect(px.topGridline, `${what}: gridlines drawn`).not.toBeNull();
  expect((box.top + box.bottom) / 2, `${what}: not above the top gridline`).toBeGreaterThanOrEqual(px.topGridline! - 1);
}
