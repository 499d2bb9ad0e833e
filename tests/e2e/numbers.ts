import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Every number the page shows as text (counts such as "184,300", "249.5K", "#3", "12.4K members", dates such as "2026-11-28",
 * times such as "7 years ago"), each checked where it stands: its characters sit on one line box
 * (a number never wraps inside itself) and inside the block that holds it (nothing sticks out).
 * Answers the offenders as "text in <tag.class>: why".
 */
export async function brokenNumbers(page: Page, within = 'main'): Promise<string[]> {
  return page.evaluate((root) => {
    const scope = document.querySelector(root) ?? document.body;
    // A date (2026-11-28: a browser breaks after its hyphens), a count with its separators and
    // suffix, a rank, or a time ago.
    const NUMBER =
      /\d{4}-\d{2}-\d{2}|#\d+|\d[\d,.]*\s?[KM%+]?(?:\s(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\sago)?/g;
    const out: string[] = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, template, [hidden], .visually-hidden, svg')) continue;
      for (const m of text.matchAll(NUMBER)) {
        const token = m[0].trim();
        if (token.replace(/\D/g, '').length === 0) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].trimEnd().length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) continue; // not rendered (a closed <details>, a hidden slide)
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        const where = `${parent.tagName.toLowerCase()}.${[...parent.classList].join('.')}`;
        if (lines.size > 1) out.push(`"${token}" in ${where}: split over ${lines.size} lines`);
        // The nearest block box: the number stays inside it.
        let block: Element = parent;
        while (block.parentElement && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
        const b = block.getBoundingClientRect();
        const r = range.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1) out.push(`"${token}" in ${where}: sticks out of its box`);
      }
    }
    return out;
  }, within);
}

/**
 * Every word of 3 to 18 letters the page shows (a plan's name, a label, a column's heading), each
 * checked on one line box: a column too narrow for it must not break it letter by letter (the
 * body's `overflow-wrap: anywhere` lets a table's column shrink under its words). Longer runs (a
 * link, an address) may break. Answers the offenders as "word in <tag.class>".
 */
export async function brokenWords(page: Page, within = 'main'): Promise<string[]> {
  return page.evaluate((root) => {
    const scope = document.querySelector(root) ?? document.body;
    const out = new Set<string>();
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, template, [hidden], .visually-hidden, svg, pre, code'))
        continue;
      // A box clipped to a pixel (a table's heading row kept for screen readers on a phone) shows no word.
      let clipped = false;
      for (let e: Element | null = parent; e && e !== scope && !clipped; e = e.parentElement)
        clipped = e.getBoundingClientRect().width <= 2;
      if (clipped) continue;
      for (const m of (node.textContent ?? '').matchAll(/\p{L}{3,18}/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
        if (new Set(rects.map((r) => Math.round(r.top))).size > 1)
          out.add(`${m[0]} in ${parent.tagName.toLowerCase()}.${[...parent.classList].join('.')}`);
      }
    }
    return [...out];
  }, within);
}

/** Fails naming every number broken over lines or out of its box (brokenNumbers). */
export async function expectNumbersWhole(page: Page, what: string, within = 'main') {
  expect(await brokenNumbers(page, within), what).toEqual([]);
}

/** Fails unless the element's text sits on one line (a button label such as "Join Premium"). */
export async function expectOneLine(page: Page, selector: string, what: string) {
  const lines = await page.locator(selector).evaluateAll((els) =>
    els
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return `${el.textContent?.trim()}: ${tops.size} line${tops.size === 1 ? '' : 's'}`;
      }),
  );
  expect(lines.length, `${what}: some shown`).toBeGreaterThan(0);
  expect(
    lines.filter((l) => !l.endsWith(': 1 line')),
    what,
  ).toEqual([]);
}
