/**
 * Page-level helpers shared by the specs: owners seeded through the server's own API and signed in
 * by token (no screens), sign-in through the login page where a spec tests signing in, and axe.
 *
 * Only `newcomer.spec.ts` signs up through the screens (register → mailed code → five onboarding
 * steps); every other spec gets its owner here, the way cal.com's `users.create` + `apiLogin`
 * fixtures do: the same calls the screens make (POST /api/auth/register, POST
 * /api/auth/verify-email, PUT /api/me/profile, POST /api/me/availability-rules, PUT
 * /api/me/profile/username), then the bearer token in localStorage (`auth_token`, spec §9).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { AUTH_TOKEN_STORAGE_KEY, DEFAULT_RULE } from '../../shared/src/constants.ts';
import { waitForVerificationCode } from './fixtures.ts';

/** The password every seeded owner has. */
const OWNER_PASSWORD = 'password-123';

/** A seeded account: what was registered, and its bearer token. */
export interface SeededAccount {
  name: string;
  email: string;
  token: string;
}

/**
 * A client address of its own for each seeding (the server trusts the loopback proxy's
 * X-Forwarded-For): the auth endpoints' per-IP budget (300 per 15 min) is for one person's
 * browser, not for a whole suite signing up from 127.0.0.1 in parallel workers.
 */
function seedingHeaders(): Record<string, string> {
  const n = Math.floor(Math.random() * 250 * 250);
  return { 'X-Forwarded-For': `10.77.${1 + Math.floor(n / 250)}.${1 + (n % 250)}` };
}

async function ok(res: Awaited<ReturnType<APIRequestContext['post']>>, what: string) {
  if (!res.ok()) throw new Error(`seeding: ${what} answered ${res.status()}: ${await res.text()}`);
  return res;
}

/**
 * Registers `acct` and verifies its e-mail with the mailed 6-digit code, through the API.
 * Returns the bearer token the verification answers with. Throws on any non-2xx answer.
 */
async function seedVerifiedAccount(request: APIRequestContext, acct: { name: string; email: string }, password = OWNER_PASSWORD): Promise<SeededAccount> {
  const headers = seedingHeaders();
  await ok(await request.post('/api/auth/register', { headers, data: { name: acct.name, email: acct.email, password, password_confirmation: password } }), 'register');
  const code = await waitForVerificationCode(acct.email);
  const verified = await ok(await request.post('/api/auth/verify-email', { headers, data: { email: acct.email, verification_code: code } }), 'verify-email');
  const { token } = (await verified.json()) as { token?: string };
  if (!token) throw new Error('seeding: verify-email answered without a token');
  return { name: acct.name, email: acct.email, token };
}

/**
 * Onboards a verified account through the API as the five onboarding steps do when the owner just
 * clicks Continue: the browser's time zone, the default weekly hours (`DEFAULT_RULE`, Monday
 * 09:00–17:00), then `username`.
 */
async function seedOnboarding(request: APIRequestContext, token: string, { timezone, username }: { timezone: string; username: string }) {
  const headers = { Authorization: `Bearer ${token}` };
  await ok(await request.put('/api/me/profile', { headers, data: { timezone } }), 'time zone');
  await ok(await request.post('/api/me/availability-rules', { headers, data: { rules: [{ ...DEFAULT_RULE }] } }), 'weekly hours');
  await ok(await request.put('/api/me/profile/username', { headers, data: { username } }), 'username');
}

/**
 * Puts `token` in this page's localStorage (`auth_token`) on the app's origin, as a sign-in leaves
 * it; returns the browser's IANA time zone. Only this once: a later sign-out stays signed out.
 */
async function signInWithToken(page: Page, token: string): Promise<string> {
  await page.goto('/api/health');
  return page.evaluate(
    ([key, value]) => {
      localStorage.setItem(key, value);
      return Intl.DateTimeFormat().resolvedOptions().timeZone;
    },
    [AUTH_TOKEN_STORAGE_KEY, token] as const,
  );
}

/** A verified account, signed in on `page` by token; ends on /app/onboarding (not onboarded yet). */
export async function registerVerified(page: Page, acct: { name: string; email: string }, password = OWNER_PASSWORD): Promise<SeededAccount> {
  const seeded = await seedVerifiedAccount(page.request, acct, password);
  await signInWithToken(page, seeded.token);
  await page.goto('/app/onboarding');
  await expect(page).toHaveURL(/\/app\/onboarding$/, { timeout: 10_000 });
  return seeded;
}

/**
 * An onboarded owner (the browser's time zone, Monday 09:00–17:00, `acct.username`), signed in on
 * `page` by token; ends on the dashboard.
 */
export async function onboardedOwner(page: Page, acct: { name: string; email: string; username: string }, password = OWNER_PASSWORD): Promise<SeededAccount> {
  const seeded = await seedVerifiedAccount(page.request, acct, password);
  const timezone = await signInWithToken(page, seeded.token);
  await seedOnboarding(page.request, seeded.token, { timezone, username: acct.username });
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  return seeded;
}

/**
 * Signs in through the login page (for specs about signing in, and second devices); waits for
 * nothing: the caller asserts where it ends (dashboard, settings, an error, a two-factor step).
 */
export async function signInThroughLogin(page: Page, email: string, password = OWNER_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The WCAG 2.1 A/AA tags most specs check against. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core on the page (or inside `include`): its violations as readable lines
 * (`id (impact): help — target [summary] | …`, 3 nodes at most). `tags` limits the rules (default:
 * every rule, WCAG and best practices); `seriousOnly` keeps serious and critical ones.
 */
export async function axeViolations(page: Page, { include, tags, seriousOnly = false }: { include?: string; tags?: string[]; seriousOnly?: boolean } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  if (tags) builder = builder.withTags(tags);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => !seriousOnly || v.impact === 'serious' || v.impact === 'critical')
    .map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.split('\n').slice(1).join(' ').trim()}]` : ''}`).slice(0, 3).join(' | ')}`,
  );
}

/**
 * Saves a screenshot for a person to look at (test-results/screenshots/…) when E2E_SCREENSHOTS=1
 * (`E2E_SCREENSHOTS=1 npm run test:e2e`); otherwise nothing: the assertions beside each call are
 * the test, the pictures are for review, and `npm test` does not spend its minutes drawing them.
 */
export async function saveScreenshot(target: Page | Locator, options: Parameters<Locator['screenshot']>[0] & { fullPage?: boolean }): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  await target.screenshot(options);
}
