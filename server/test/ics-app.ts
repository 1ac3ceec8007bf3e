/**
 * A test app that may fetch calendars from loopback (ALLOW_PRIVATE_CALENDAR_HOSTS) with a local ICS
 * server, its clock set to `now` (UTC ms); started before the file's tests, closed after them.
 * Read `ctx.t` and `ctx.srv` inside tests (they exist once beforeAll ran).
 */
import { afterAll, beforeAll } from 'vitest';
import { startIcsServer, type IcsServer } from './ics-server.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export function icsTestApp(now: number): { t: TestApp; srv: IcsServer } {
  const ctx = {} as { t: TestApp; srv: IcsServer };
  beforeAll(async () => {
    ctx.srv = await startIcsServer();
    ctx.t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
    ctx.t.clock.set(now);
  });
  afterAll(async () => {
    await ctx.t?.close();
    await ctx.srv?.close();
  });
  return ctx;
}
