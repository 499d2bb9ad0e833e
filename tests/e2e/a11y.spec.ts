import { insertSubmission } from '../../db/queries/submissions';
import { axe } from './axe';
import { signIn } from './console-sign-in';
import { expect, test } from './fixtures';
import { holdScripts, hydrated, unhydrated } from './hydration';
import { PUBLIC_PAGE_TYPES } from './pages';
import { withoutJavaScript } from './plain-browser';

for (const path of PUBLIC_PAGE_TYPES) {
  test(`axe finds no WCAG 2.2 AA violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const results = await axe(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

test('axe finds no violation on the mobile home page with the carousel and open menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' })).toBeVisible();
  const results = await axe(page).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});

test('the report dialog traps focus, passes axe and closes on Escape', async ({ page }) => {
  await page.goto('/server/bitcoin-maximalists');
  await hydrated(page);
  const opener = page.getByRole('button', { name: 'Report' });
  await opener.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const results = await axe(page).include('dialog').analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('the premium carousel slides with the keyboard and wraps at both ends', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  const carousel = page.getByRole('region', { name: 'Premium picks carousel' });
  await carousel.scrollIntoViewIfNeeded();
  const dots = carousel.getByRole('button', { name: /Go to slide/ });
  const count = await dots.count();
  expect(count).toBeGreaterThan(1);
  await expect(dots.first()).toHaveAttribute('aria-current', 'true');
  await carousel.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(dots.nth(count - 1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(dots.first()).toHaveAttribute('aria-current', 'true');
  await carousel.getByRole('button', { name: 'Next server' }).click();
  await expect(dots.nth(1)).toHaveAttribute('aria-current', 'true');
  // Only the slide shown can be read or focused: the built slides are marked by the island.
  const slides = carousel.locator('.carousel-slide');
  await expect(slides).toHaveCount(count);
  await expect(slides.nth(1)).toHaveAttribute('aria-hidden', 'false');
  expect(await slides.evaluateAll((els) => els.map((e) => (e as HTMLElement).inert))).toEqual(
    Array.from({ length: count }, (_, i) => i !== 1),
  );
  await carousel.getByRole('button', { name: 'Previous server' }).click();
  await expect(dots.first()).toHaveAttribute('aria-current', 'true');
});

test('the carousel follows a swipe', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await hydrated(page);
  const carousel = page.getByRole('region', { name: 'Premium picks carousel' });
  await carousel.scrollIntoViewIfNeeded();
  const box = await carousel.locator('.carousel-viewport').boundingBox();
  if (!box) throw new Error('carousel not laid out');
  const y = box.y + 40;
  await page.mouse.move(box.x + box.width - 40, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, y, { steps: 5 });
  await page.mouse.up();
  await expect(carousel.getByRole('button', { name: 'Go to slide 2' })).toHaveAttribute('aria-current', 'true');
});

test('the FAQ tabs and accordion work from the keyboard and search filters the active tab', async ({ page }) => {
  await page.goto('/help');
  await hydrated(page);
  const general = page.getByRole('tab', { name: 'General' });
  await general.focus();
  await page.keyboard.press('ArrowRight');
  const submission = page.getByRole('tab', { name: 'Server Submission' });
  await expect(submission).toBeFocused();
  await expect(submission).toHaveAttribute('aria-selected', 'true');
  const question = page.getByRole('button', { name: 'How long does review take?' });
  await question.focus();
  await page.keyboard.press('Enter');
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText('We do not promise a review time')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(question).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('searchbox', { name: 'Search the help center' }).fill('512X512');
  await expect(page.getByRole('button', { name: 'What icon should I use?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'How long does review take?' })).toHaveCount(0);
});

test('a help center search keeps the question being read open, and opens no other', async ({ page }) => {
  await page.goto('/help');
  await hydrated(page);
  const report = page.getByRole('button', { name: 'How do I report a server?' });
  await report.click();
  await expect(report).toHaveAttribute('aria-expanded', 'true');
  const search = page.getByRole('searchbox', { name: 'Search the help center' });
  // A word of the open answer: the question stays, still open, its answer still shown.
  await search.fill('moderator reviews it');
  await expect(page.getByRole('tabpanel').locator('.faq-q')).toHaveCount(1);
  await expect(report).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText('Pick a reason, add details if you like')).toBeVisible();
  // A search that leaves it out shows the other matches closed.
  await search.fill('browser');
  await expect(page.getByRole('button', { name: 'How do I save a server?' })).toHaveAttribute('aria-expanded', 'false');
  await search.fill('');
  await expect(report).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('.faq-q[aria-expanded="true"]')).toHaveCount(1);
});

test('the help center opens a question clicked and searches what was typed before its script arrived', async ({
  page,
}) => {
  await page.goto('/help', { waitUntil: 'networkidle' });
  expect(await unhydrated(page), 'nothing of React before the visitor starts').toBe(1);
  // The scripts held: the visitor acts before the island hydrates.
  const release = await holdScripts(page);
  const first = page.locator('.faq-q').first();
  await first.click();
  expect(await unhydrated(page), 'clicked before hydration').toBe(1);
  release();
  await expect(first).toHaveAttribute('aria-expanded', 'true');

  await page.unrouteAll();
  await page.reload({ waitUntil: 'networkidle' });
  const releaseAgain = await holdScripts(page);
  await page.getByRole('searchbox', { name: 'Search the help center' }).fill('BROWSER ONLY');
  expect(await unhydrated(page), 'typed before hydration').toBe(1);
  releaseAgain();
  // The inactive tabs' panels are in the page too (hidden): count the shown panel's questions.
  await expect(page.getByRole('tabpanel').locator('.faq-q')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'How do I save a server?' })).toBeVisible();
});

test('without JavaScript the help center shows every topic’s questions with their answers', async ({
  browser,
  site,
}) => {
  const { context, page } = await withoutJavaScript(browser, site.baseURL, 320);
  await page.goto('/help');
  // The search and the tabs need a script: they are left out, not shown doing nothing.
  await expect(page.getByRole('searchbox', { name: 'Search the help center' })).toBeHidden();
  await expect(page.getByRole('tab', { name: 'General' })).toBeHidden();
  // Each topic under its title, every answer open: one from the first tab and one from the last.
  for (const title of ['General', 'Server Submission', 'Pricing & Billing']) {
    await expect(page.locator('.faq-panel-title', { hasText: title })).toBeVisible();
  }
  await expect(page.getByText('We do not promise a review time')).toBeVisible();
  const panels = page.locator('.faq-panel');
  const questions = panels.locator('.faq-q');
  const answers = panels.locator('.faq-a');
  expect(await questions.count()).toBeGreaterThan(10);
  await expect(answers).toHaveCount(await questions.count());
  for (const answer of await answers.all()) await expect(answer).toBeVisible();
  // All of it fits a 320 px phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await context.close();
});

test('a server icon that fails to load shows the generated initials', async ({ page }) => {
  await page.route('**/icons/servers/forex-signals-room.svg', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto('/server/forex-signals-room');
  await hydrated(page);
  const icon = page.locator('.detail-head .icon');
  await expect(icon.locator('img')).toHaveAttribute('data-failed', '');
  await expect(icon.locator('.icon-initials')).toHaveText('FS');
});

test('every tab stop of the home, a server page and the submit form shows a focus ring at 320 px', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of ['/', '/server/apex-legends-hub', '/submit-server']) {
    await page.goto(path);
    await hydrated(page);
    const unringed: string[] = [];
    let stops = 0;
    for (let i = 0; i < 150; i++) {
      await page.keyboard.press('Tab');
      // The focused element's ring: its outline and shadow focused must differ from the same unfocused.
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const look = () => {
          const cs = getComputedStyle(el);
          return `${cs.boxShadow}|${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`;
        };
        const focused = look();
        el.blur();
        const unfocused = look();
        el.focus({ focusVisible: true } as FocusOptions);
        const name = `${el.tagName.toLowerCase()}.${el.className} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
        return { name, ringed: focused !== unfocused };
      });
      if (!stop) break; // Past the last stop: the focus left the page.
      stops++;
      if (!stop.ringed) unringed.push(stop.name);
    }
    expect(stops, `${path} has tab stops`).toBeGreaterThan(15);
    expect(unringed, `${path}: focused with no ring`).toEqual([]);
  }
});

test('the phone menu from the keyboard: Enter opens it, Escape closes it back to the toggle, tabbing past its last link closes it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/');
  await hydrated(page);
  const toggle = page.getByRole('button', { name: 'Menu' });
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(links.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const count = await links.count();
  for (let i = 0; i < count; i++) await page.keyboard.press('Tab');
  await expect(links.last()).toBeFocused();
  // On from the last link: the menu, which covers the page, closes and the focus is in sight.
  await page.keyboard.press('Tab');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(links.first()).toBeHidden();
  const focused = page.locator(':focus');
  await expect(focused).toBeInViewport();
  expect(await focused.evaluate((el) => el.closest('nav') === null)).toBe(true);
});

test('a refused review moves the focus to its first bad field, which names its message', async ({ page }) => {
  await page.goto('/server/apex-legends-hub');
  await hydrated(page);
  const body = page.getByRole('textbox', { name: /Your review/ });
  // The browser's own check (minlength) is set aside: the site's refusal is what is tested.
  await page.locator('form:has(textarea[name="body"])').evaluate((f) => f.setAttribute('novalidate', ''));
  await body.fill('Too short');
  await page.getByRole('button', { name: 'Publish review' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'at least 20 characters' })).toBeVisible();
  await expect(body).toBeFocused();
  await expect(body).toHaveAttribute('aria-invalid', 'true');
  await expect(body).toHaveAccessibleDescription(/at least 20 characters/);
});

test('a console row deleted from the keyboard gives the focus to the screen heading, not the page', async ({
  page,
  site,
}) => {
  await insertSubmission(site.db, {
    server_name: 'Focus Check Submission',
    server_description: 'A submission the keyboard deletes from the console table.',
    category: 'Gaming',
    subcategory: null,
    invite_link: 'https://discord.gg/focuscheck',
    server_image: 'https://example.com/icon.png',
    contact_email: 'focus@example.com',
    features: null,
    member_count: 10,
    active_users: 1,
    submitter_name: 'Focus',
    is_owner: true,
  });
  await signIn(page, site.db);
  await page.goto('/admin#submissions');
  await page.getByRole('button', { name: 'Review Focus Check Submission' }).focus();
  await page.keyboard.press('Enter');
  const remove = page.getByRole('button', { name: 'Delete', exact: true });
  page.once('dialog', (dialog) => void dialog.accept());
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Deleted “Focus Check Submission”.' })).toBeVisible();
  await expect(remove).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Submissions' })).toBeFocused();
});

test('with forced colors (Windows high contrast), which drops every shadow, each focused control still shows a ring', async ({
  page,
}) => {
  await page.emulateMedia({ forcedColors: 'active' });
  for (const path of ['/', '/admin']) {
    await page.goto(path);
    await hydrated(page);
    const unringed: string[] = [];
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const cs = getComputedStyle(el);
        const ringed = cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) > 0;
        return { name: `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`, ringed };
      });
      if (!stop) break;
      if (!stop.ringed) unringed.push(stop.name);
    }
    expect(unringed, `${path}: focused with no ring in forced colors`).toEqual([]);
  }
});

test('signing in to the console gives the focus to the first screen’s heading', async ({ page, site }) => {
  await page.goto('/admin');
  await page.getByLabel('Email').fill('nobody-yet@example.com');
  await page.getByLabel('Password').fill('a wrong password');
  await page.getByLabel('Password').press('Enter');
  // Refused: the focus stays in the form, the reason announced.
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeFocused();
  const email = await signIn(page, site.db);
  expect(email).toContain('@');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
});
