/**
 * Dark mode (issue 22 item 7): the app and the visitor's public page follow prefers-color-scheme.
 * Here: the browser's own parts (form controls, scrollbars) follow too (color-scheme), the address
 * bar colour of each scheme matches the page, a scheme change applies without a reload, and every
 * colour token of the design has a dark value, so CSS written with tokens is dark automatically.
 * Contrast on every screen in both schemes: accessibility.spec.ts.
 */
import { expect, test, type Page } from '@playwright/test';

const ENTRIES = [
  // The app (web/index.html) and the public page's own build (web/public.html; an unknown link's shell).
  { name: 'app', path: '/login', ready: (p: Page) => expect(p.getByLabel('Email')).toBeVisible() },
  { name: 'public page', path: '/u/nobody-here', ready: (p: Page) => expect(p.getByText('This availability link could not be found.')).toBeVisible() },
] as const;

/** '#0f172a' → 'rgb(15, 23, 42)', as getComputedStyle writes colours. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** Colour tokens declared on :root outside any media query, and those the dark-scheme :root declares. */
async function colourTokens(page: Page): Promise<{ light: string[]; dark: string[] }> {
  return page.evaluate(() => {
    const light = new Set<string>();
    const dark = new Set<string>();
    const isColour = (v: string) => /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|\b(white|black|transparent)\b/i.test(v);
    const collect = (rules: CSSRuleList, into: Set<string>) => {
      for (const rule of Array.from(rules)) {
        if (!(rule instanceof CSSStyleRule) || rule.selectorText !== ':root') continue;
        for (const name of Array.from(rule.style)) if (name.startsWith('--') && isColour(rule.style.getPropertyValue(name))) into.add(name);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      collect(sheet.cssRules, light);
      for (const rule of Array.from(sheet.cssRules)) {
        if (rule instanceof CSSMediaRule && /prefers-color-scheme:\s*dark/.test(rule.conditionText)) {
          for (const inner of Array.from(rule.cssRules)) {
            if (!(inner instanceof CSSStyleRule) || inner.selectorText !== ':root') continue;
            for (const name of Array.from(inner.style)) if (name.startsWith('--')) dark.add(name);
          }
        }
      }
    }
    return { light: [...light].sort(), dark: [...dark].sort() };
  });
}

for (const entry of ENTRIES) {
  test(`${entry.name}: follows the colour scheme — palette, native controls, address bar colour, every token dark`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(entry.path);
    await entry.ready(page);

    // Form controls and scrollbars are drawn for the scheme in use.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light dark');
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'light dark');

    const themeLight = await page.locator('meta[name="theme-color"][media="(prefers-color-scheme: light)"]').getAttribute('content');
    const themeDark = await page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]').getAttribute('content');
    expect(themeLight).toMatch(/^#[0-9a-f]{6}$/i);
    expect(themeDark).toMatch(/^#[0-9a-f]{6}$/i);

    const bodyColours = () => page.evaluate(() => ({ background: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color }));
    const light = await bodyColours();
    // The browser's bar matches the page in each scheme.
    expect(light.background).toBe(rgb(themeLight!));

    // The visitor switches the system to dark while the page is open: it turns dark, no reload.
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await bodyColours();
    expect(dark.background).toBe(rgb(themeDark!));
    expect(dark.background).not.toBe(light.background);
    expect(dark.text).not.toBe(light.text);
    // A form control follows as well (its field background is the dark surface, not white).
    const email = page.locator('input').first();
    if (await email.count()) expect(await email.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(255, 255, 255)');

    // Every colour token has a dark value: CSS written with tokens (new screens included) is dark too.
    const tokens = await colourTokens(page);
    expect(tokens.light.length).toBeGreaterThan(20);
    expect(tokens.light.filter((t) => !tokens.dark.includes(t)), 'colour tokens without a dark value').toEqual([]);

    await page.emulateMedia({ colorScheme: 'light' });
    expect((await bodyColours()).background).toBe(light.background);
  });
}
