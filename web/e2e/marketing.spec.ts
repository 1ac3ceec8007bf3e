/**
 * Landing, legal, support and 404 pages against the spec (§1 facts, §2 "Landing page (/)", §9):
 * L-01..L-27 (L-26 recorded: /login links the logo to /app/dashboard), F-02, F-08, F-09, F-17..F-25.
 * Saves screenshots at 1280 and 375 px wide under test-results/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { saveScreenshot } from './helpers.ts';

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 812 };
const MARKETING_SITE = 'https://avail.app';

/** The page has no sideways scrolling (everything fits the viewport's width). */
async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** Scrolls the window without animation (the page's CSS asks for smooth scrolling). */
async function scrollInstantly(page: Page, top: number) {
  await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(top);
}

/** Waits until the window has stopped scrolling (the same position on consecutive checks). */
async function scrollSettled(page: Page) {
  let last = -1;
  await expect
    .poll(async () => {
      const y = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(window.scrollY)))));
      const still = y === last;
      last = y;
      return still;
    })
    .toBe(true);
}

/** True once section `id` sits at the top of the viewport (below the sticky bar) or the page is scrolled to its end. */
async function sectionInView(page: Page, id: string) {
  return page.evaluate((sectionId) => {
    const el = document.getElementById(sectionId);
    if (!el) return false;
    const top = el.getBoundingClientRect().top;
    const atEnd = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
    return (top >= -2 && top <= 130) || (atEnd && top < window.innerHeight);
  }, id);
}

test('landing: the sections in order with the spec counts, the top bar, pricing and the footer', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await expect(page.getByText('Now in Beta')).toBeVisible();

  // L-07: hero, features, how it works, testimonials, use cases + Why, highlights, pricing, FAQ, e-mail support link.
  const order = await page.locator('main > section').evaluateAll((els) => els.map((e) => e.id));
  expect(order).toEqual(['hero', 'features', 'how-it-works', 'testimonials', 'use-cases', 'highlights', 'pricing', 'faq', 'contact']);

  // L-03, L-04: the top bar's Login and Get started.
  const header = page.locator('header').first();
  await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(header.getByRole('link', { name: 'Get started', exact: true })).toHaveAttribute('href', '/register');
  // L-01: the five anchors.
  const anchors = header.getByRole('navigation', { name: 'Sections' }).getByRole('link');
  expect(await anchors.evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(['#features', '#how-it-works', '#use-cases', '#pricing', '#faq']);

  // L-08, L-09 and F-08 (CalDAV is named).
  const hero = page.locator('#hero');
  await expect(hero.getByText('Now in Beta', { exact: true })).toBeVisible();
  await expect(hero.getByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/register');
  await expect(hero.getByText(/CalDAV/)).toBeVisible();

  // L-11, L-12, L-13: six features, three steps, three testimonials.
  await expect(page.locator('#features').getByRole('heading', { level: 3 })).toHaveCount(6);
  await expect(page.locator('#how-it-works').getByRole('listitem')).toHaveCount(3);
  const testimonials = page.getByRole('list', { name: 'Testimonials' }).getByRole('listitem');
  await expect(testimonials).toHaveCount(3);
  for (const role of ['Freelance brand designer', 'Producer at a video agency', 'Customer-success lead']) {
    await expect(page.locator('#testimonials').getByText(role)).toBeVisible();
  }

  // L-15, F-02: four use cases naming the target users; L-16: the Why section with them.
  const useCases = page.locator('#use-cases .mk-grid').getByRole('heading', { level: 3 });
  await expect(useCases).toHaveText(['Freelancers and consultants', 'Agencies and studios', 'Sales and partnerships people', 'Support and success teams']);
  await expect(page.locator('#use-cases').getByRole('heading', { name: 'Why Avail?' })).toBeVisible();
  await expect(page.locator('#use-cases .mk-why-list > li')).toHaveCount(4);

  // L-17: feature highlights.
  await expect(page.getByRole('heading', { name: 'Feature highlights', level: 2 })).toBeVisible();
  await expect(page.locator('#highlights').getByRole('listitem')).toHaveCount(4);

  // L-18, F-17..F-19: pricing.
  const individual = page.getByRole('article', { name: 'Individual' });
  await expect(individual.getByText('Free during beta')).toBeVisible();
  const pro = page.getByRole('article', { name: /Pro/ });
  await expect(pro.getByText('Coming soon')).toBeVisible();
  await expect(pro.getByRole('listitem')).toHaveText(['Teams', 'Custom branding', 'Advanced scheduling rules', 'Analytics', 'Priority support', 'API access', 'White-label']);
  const notify = pro.getByRole('button', { name: 'Get notified' });
  await expect(notify).toBeDisabled();
  await notify.click({ force: true });
  await expect(page).toHaveURL(/\/$/);
  await expect(notify).toBeDisabled();

  // L-19 count (the accordion's behaviour has its own test) and L-22: the e-mail support link after the FAQ.
  await expect(page.locator('#faq').getByRole('heading', { level: 3 })).toHaveCount(6);
  const support = page.locator('#contact').getByRole('link', { name: /support@avail\.app/ });
  await expect(support).toHaveAttribute('href', 'mailto:support@avail.app');

  // L-23: footer links.
  const footer = page.getByRole('navigation', { name: 'Footer' });
  const hrefs = await footer.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  for (const href of ['/', '/login', '/register', '/privacypolicy', '/termsofservice']) expect(hrefs).toContain(href);
  await expect(page.locator('footer')).toContainText('© 2025');

  await expectNoHorizontalOverflow(page);
  await scrollInstantly(page, 0);
  await saveScreenshot(page, { path: `${SHOTS}/landing-1280.png`, fullPage: true });

  await hero.getByRole('link', { name: 'Get started free' }).click();
  await expect(page).toHaveURL(/\/register$/);
});

test('landing: anchors scroll smoothly to their sections; the header gets compact only after more than 50 px', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  const header = page.locator('header.mk-header');
  const nav = page.getByRole('navigation', { name: 'Sections' });

  // L-06: not compact at 0 and at exactly 50 px; compact at 51 px; back again at the top.
  await expect(header).toHaveAttribute('data-compact', 'false');
  const fullHeight = (await header.boundingBox())!.height;
  await scrollInstantly(page, 50);
  await expect(header).toHaveAttribute('data-compact', 'false');
  await expect(header).not.toHaveClass(/compact/);
  await scrollInstantly(page, 51);
  await expect(header).toHaveClass(/compact/);
  await expect.poll(async () => (await header.boundingBox())!.height).toBeLessThan(fullHeight - 8);
  await scrollInstantly(page, 0);
  await expect(header).toHaveAttribute('data-compact', 'false');
  await expect.poll(async () => (await header.boundingBox())!.height).toBe(fullHeight);

  // L-01: each anchor updates the hash and brings its section into view.
  for (const [id, label] of [
    ['features', 'Features'],
    ['how-it-works', 'How it works'],
    ['use-cases', 'Use cases'],
    ['pricing', 'Pricing'],
    ['faq', 'FAQ'],
  ] as const) {
    await scrollInstantly(page, 0);
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/#${id}$`));
    await expect.poll(() => sectionInView(page, id)).toBe(true);
    await scrollSettled(page);
    expect(await sectionInView(page, id)).toBe(true);
    await expect(header).toHaveClass(/compact/);
  }

  // L-02: smooth, not a jump — the window passes through positions between start and target.
  await scrollInstantly(page, 0);
  await page.evaluate(() => {
    const w = window as unknown as { seen: number[] };
    w.seen = [];
    window.addEventListener('scroll', () => w.seen.push(window.scrollY), { passive: true });
  });
  await nav.getByRole('link', { name: 'Pricing' }).click();
  await expect.poll(() => sectionInView(page, 'pricing')).toBe(true);
  await scrollSettled(page);
  const target = await page.evaluate(() => window.scrollY);
  const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
  const between = new Set(seen.filter((y) => y > 0 && y < target - 1));
  expect(between.size).toBeGreaterThan(2);

  // L-10: the hero's 'See how it works' scrolls to #how-it-works.
  await scrollInstantly(page, 0);
  await page.locator('#hero').getByRole('link', { name: 'See how it works' }).click();
  await expect(page).toHaveURL(/\/#how-it-works$/);
  await expect.poll(() => sectionInView(page, 'how-it-works')).toBe(true);
});

test('landing at 375 px: the menu opens full screen, traps focus, closes on Escape and on a link that scrolls', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeHidden();
  const open = page.getByRole('button', { name: 'Open menu' });
  await expect(open).toBeVisible();

  // L-05: full screen.
  await open.click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  expect(await menu.boundingBox()).toEqual({ x: 0, y: 0, width: MOBILE.width, height: MOBILE.height });
  await expect(menu.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(menu.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register');
  await saveScreenshot(page, { path: `${SHOTS}/landing-menu-375.png` });

  // Focus stays inside the open menu.
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  }

  // Escape closes it and gives focus back to the menu button.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(open).toBeFocused();

  // A section link closes the menu and scrolls there.
  await open.click();
  await menu.getByRole('link', { name: 'Pricing' }).click();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect.poll(() => sectionInView(page, 'pricing')).toBe(true);

  // The close button closes it too.
  await open.click();
  await menu.getByRole('button', { name: 'Close menu' }).click();
  await expect(menu).toBeHidden();

  await scrollInstantly(page, 0);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, { path: `${SHOTS}/landing-375.png`, fullPage: true });
});

test('landing: testimonials are a scrolling row below 768 px and a three-column grid from 768 px (L-14)', async ({ page }) => {
  const list = page.getByRole('list', { name: 'Testimonials' });
  const layout = () =>
    list.evaluate((ul) => {
      const cs = getComputedStyle(ul);
      const cards = [...ul.children].map((li) => li.getBoundingClientRect());
      return {
        display: cs.display,
        snap: cs.scrollSnapType,
        columns: cs.gridTemplateColumns.split(' ').filter(Boolean).length,
        scrolls: ul.scrollWidth > ul.clientWidth,
        tops: cards.map((r) => Math.round(r.top)),
        lefts: cards.map((r) => Math.round(r.left)),
        rights: cards.map((r) => Math.round(r.right)),
      };
    });

  await page.setViewportSize({ width: 767, height: 900 });
  await page.goto('/');
  await list.scrollIntoViewIfNeeded();
  const mobile = await layout();
  expect(mobile.display).toBe('flex');
  expect(mobile.snap).toBe('x mandatory');
  expect(mobile.scrolls).toBe(true);
  expect(new Set(mobile.tops).size).toBe(1); // one row
  expect(mobile.rights[0]).toBeLessThanOrEqual(767); // the first card fits
  expect(mobile.lefts[1]).toBeLessThan(767); // the next one peeks in…
  expect(mobile.rights[1]).toBeGreaterThan(767); // …and is cut off at the edge
  await expectNoHorizontalOverflow(page);

  await page.setViewportSize({ width: 768, height: 900 });
  await expect.poll(async () => (await layout()).display).toBe('grid');
  const desktop = await layout();
  expect(desktop.columns).toBe(3);
  expect(desktop.scrolls).toBe(false);
  expect(new Set(desktop.tops).size).toBe(1);
  expect(Math.max(...desktop.rights)).toBeLessThanOrEqual(768); // all three fully visible

  // Back below 768 px the mobile layout returns (it follows the width, not the first load).
  await page.setViewportSize({ width: 767, height: 900 });
  await expect.poll(async () => (await layout()).display).toBe('flex');
});

test('landing: the FAQ has six questions, the first open, one open at a time, keyboard operable (L-19..L-21, F-09)', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  const faq = page.locator('#faq');
  const triggers = faq.getByRole('button');
  await expect(triggers).toHaveCount(6);
  const expanded = () => triggers.evaluateAll((els) => els.map((e) => e.getAttribute('aria-expanded') === 'true'));

  // L-20: the first is open on load; F-09: its answer mentions Outlook.
  expect(await expanded()).toEqual([true, false, false, false, false, false]);
  await expect(faq.getByRole('region')).toHaveCount(1);
  await expect(faq.getByRole('region')).toContainText('Outlook');

  // L-21: opening another closes the open one.
  await triggers.nth(1).click();
  expect(await expanded()).toEqual([false, true, false, false, false, false]);
  await expect(faq.getByRole('region')).toHaveCount(1);
  await expect(faq.getByRole('region')).toContainText('never titles, guests or details');

  // Keyboard: Enter and Space open a question (closing the other); Space again closes it.
  await triggers.nth(2).focus();
  await page.keyboard.press('Enter');
  expect(await expanded()).toEqual([false, false, true, false, false, false]);
  await page.keyboard.press('ArrowDown');
  await expect(triggers.nth(3)).toBeFocused();
  await page.keyboard.press('Space');
  expect(await expanded()).toEqual([false, false, false, true, false, false]);
  await page.keyboard.press('Space');
  expect(await expanded()).toEqual([false, false, false, false, false, false]);
  await expect(faq.getByRole('region')).toHaveCount(0);
});

test('logo: the marketing site on /, /privacypolicy and /termsofservice; /app/dashboard elsewhere, /login included (L-24..L-27)', async ({ page }) => {
  await page.route('https://avail.app/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Avail marketing site</title><h1>Avail marketing site</h1>' }));
  for (const path of ['/', '/privacypolicy', '/termsofservice']) {
    await page.goto(path);
    const logo = page.locator('header').first().getByRole('link', { name: 'Avail home' });
    await expect(logo).toHaveAttribute('href', MARKETING_SITE);
    await logo.click();
    await expect(page).toHaveURL(`${MARKETING_SITE}/`);
    await expect(page.getByRole('heading', { name: 'Avail marketing site' })).toBeVisible();
  }
  // L-26 (recorded, the login screen is not this spec's): on /login the logo goes to /app/dashboard.
  for (const path of ['/support', '/forgot-password', '/nope/deeper', '/login']) {
    await page.goto(path);
    const logo = page.getByRole('link', { name: 'Avail dashboard' }).first();
    await expect(logo).toHaveAttribute('href', '/app/dashboard');
    await logo.click();
    // Signed out, /app/dashboard sends the visitor on to /login.
    await expect(page).toHaveURL(/\/login$/);
  }
});

test('legal pages state the spec facts (F-20..F-25) and fit 375 px', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/privacypolicy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Privacy Policy · Avail');
  const privacy = page.locator('main');
  await expect(privacy).toContainText('your name, e-mail and timezone'); // F-24
  await expect(privacy).toContainText('Calendar connections (Google, CalDAV, Apple'); // F-25
  await expect(privacy).toContainText('the name, e-mail and note they enter are stored and sent to you');
  await expect(privacy).toContainText('counted once per visitor per day, without storing IP addresses');
  await expect(privacy).toContainText('at least 16 years old'); // F-20
  await expect(privacy).toContainText('removed within 30 days of account deletion'); // F-21
  await expect(privacy).toContainText('laws of Belgium'); // F-22
  await expect(privacy).toContainText('© 2025'); // F-23
  await saveScreenshot(page, { path: `${SHOTS}/privacy-1280.png`, fullPage: true });

  await page.goto('/termsofservice');
  await expect(page.getByRole('heading', { name: 'Terms of Service', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Terms of Service · Avail');
  const terms = page.locator('main');
  await expect(terms).toContainText('at least 16 years old');
  await expect(terms).toContainText('removed within 30 days of account deletion');
  await expect(terms).toContainText('governed by the laws of Belgium');
  await expect(terms).toContainText('© 2025');
  await saveScreenshot(page, { path: `${SHOTS}/terms-1280.png`, fullPage: true });

  await page.setViewportSize(MOBILE);
  for (const [path, name] of [
    ['/privacypolicy', 'privacy'],
    ['/termsofservice', 'terms'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, { path: `${SHOTS}/${name}-375.png`, fullPage: true });
  }
});

test('/support shows the support e-mail, a link to the FAQ that opens it, and help for common problems', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/support');
  await expect(page.getByRole('heading', { name: 'Support', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Support · Avail');
  const main = page.locator('main');
  await expect(main.getByRole('link', { name: 'support@avail.app' })).toHaveAttribute('href', 'mailto:support@avail.app');
  await expect(main.getByRole('link', { name: 'Reset your password' })).toHaveAttribute('href', '/forgot-password');
  await expect(main.getByText('My calendar is not syncing')).toBeVisible();
  await saveScreenshot(page, { path: `${SHOTS}/support-1280.png`, fullPage: true });

  const toFaq = main.getByRole('link', { name: 'see the FAQ' });
  await expect(toFaq).toHaveAttribute('href', '/#faq');
  await toFaq.click();
  await expect(page).toHaveURL(/\/#faq$/);
  await expect.poll(() => sectionInView(page, 'faq')).toBe(true);
  await expect(page.locator('#faq').getByRole('button').first()).toHaveAttribute('aria-expanded', 'true');

  await page.setViewportSize(MOBILE);
  await page.goto('/support');
  await expect(page.getByRole('link', { name: 'support@avail.app' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, { path: `${SHOTS}/support-375.png`, fullPage: true });
});

test('unknown paths show a real 404 page with a way home and its own document title', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  for (const path of ['/nope/deeper', '/app/nope', '/a/b/c']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(page.getByText('The page you are looking for does not exist or has moved.')).toBeVisible();
    await expect(page).toHaveTitle('Page not found · Avail');
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  }
  await saveScreenshot(page, { path: `${SHOTS}/404-1280.png`, fullPage: true });

  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Now in Beta')).toBeVisible();
  await expect(page).not.toHaveTitle('Page not found · Avail');

  await page.setViewportSize(MOBILE);
  await page.goto('/app/nope');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, { path: `${SHOTS}/404-375.png`, fullPage: true });
});
