import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('weekly rules', () => {
  it('adds single rules and lists them sorted by weekday and start', async () => {
    const { auth } = await buildUser(t);
    const a = await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 2, start_time_local: '13:00', end_time_local: '17:00' });
    expect(a.status).toBe(201);
    expect(a.body.rule).toEqual({ id: expect.any(String), weekday: 2, start_time_local: '13:00', end_time_local: '17:00' });
    await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '12:00' });
    await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 2, start_time_local: '08:00', end_time_local: '10:00' });
    const list = await request(t.app).get('/api/me/availability-rules').set(auth);
    expect(list.status).toBe(200);
    expect(list.body.rules.map((r: any) => `${r.weekday} ${r.start_time_local}-${r.end_time_local}`)).toEqual([
      '0 09:00-12:00',
      '2 08:00-10:00',
      '2 13:00-17:00',
    ]);
  });

  it('a rules list replaces the whole schedule', async () => {
    const { auth, user } = await buildUser(t);
    await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 4, start_time_local: '10:00', end_time_local: '11:00' });
    const res = await request(t.app)
      .post('/api/me/availability-rules')
      .set(auth)
      .send({ rules: [{ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }, { weekday: 1, start_time_local: '09:00', end_time_local: '17:00' }] });
    expect(res.status).toBe(200);
    expect(res.body.rules.map((r: any) => r.weekday)).toEqual([0, 1]);
    const list = await request(t.app).get('/api/me/availability-rules').set(auth);
    expect(list.body.rules).toEqual(res.body.rules);
    // The replaced rule is kept as a soft-deleted row (replication needs it).
    const rows = await t.db.selectFrom('availability_rules').selectAll().where('user_id', '=', user.id).execute();
    expect(rows.filter((r) => r.is_deleted === 1).map((r) => r.weekday)).toEqual([4]);
  });

  it('a failing rules list leaves the old schedule untouched', async () => {
    const { auth } = await buildUser(t);
    await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 3, start_time_local: '09:00', end_time_local: '10:00' });
    const res = await request(t.app)
      .post('/api/me/availability-rules')
      .set(auth)
      .send({ rules: [{ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }, { weekday: 1, start_time_local: '18:00', end_time_local: '09:00' }] });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('End time must be after start time');
    expect(res.body.errors).toHaveProperty(['rules.1.end_time_local']);
    const list = await request(t.app).get('/api/me/availability-rules').set(auth);
    expect(list.body.rules.map((r: any) => r.weekday)).toEqual([3]);
  });

  it('uses the spec messages', async () => {
    const { auth } = await buildUser(t);
    const empty = await request(t.app).post('/api/me/availability-rules').set(auth).send({ rules: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.error).toBe('Please add at least one availability slot');
    const format = await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 0, start_time_local: '9am', end_time_local: '17:00' });
    expect(format.body.error).toBe('Time format must be HH:MM (24-hour format)');
    const midnight = await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '24:00' });
    expect(midnight.status).toBe(422);
    const missing = await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 0, start_time_local: '', end_time_local: '17:00' });
    expect(missing.body.error).toBe('Please fill in all time fields');
  });

  it('refuses repeated or overlapping slots of one day with 422 on the later slot, keeps back-to-back ones (issue 23)', async () => {
    const { auth } = await buildUser(t);
    await request(t.app).post('/api/me/availability-rules').set(auth).send({ weekday: 3, start_time_local: '08:00', end_time_local: '09:00' });
    const slot = (weekday: number, start: string, end: string) => ({ weekday, start_time_local: start, end_time_local: end });
    const dup = await request(t.app).post('/api/me/availability-rules').set(auth).send({ rules: [slot(0, '09:00', '17:00'), slot(0, '09:00', '17:00'), slot(0, '09:00', '17:00')] });
    expect(dup.status).toBe(422);
    expect(dup.body.error).toBe('This time slot is already set for this day');
    expect(dup.body.errors).toEqual({
      'rules.1.start_time_local': 'This time slot is already set for this day',
      'rules.2.start_time_local': 'This time slot is already set for this day',
    });
    const overlap = await request(t.app).post('/api/me/availability-rules').set(auth).send({ rules: [slot(0, '12:00', '17:00'), slot(1, '09:00', '17:00'), slot(0, '09:00', '13:00')] });
    expect(overlap.status).toBe(422);
    expect(overlap.body.errors).toEqual({ 'rules.2.start_time_local': 'This time slot overlaps another slot on the same day' });
    // Nothing was replaced.
    expect((await request(t.app).get('/api/me/availability-rules').set(auth)).body.rules.map((r: any) => r.weekday)).toEqual([3]);

    const backToBack = await request(t.app).post('/api/me/availability-rules').set(auth).send({ rules: [slot(0, '09:00', '12:00'), slot(0, '12:00', '17:00')] });
    expect(backToBack.status).toBe(200);
    expect(backToBack.body.rules).toHaveLength(2);
    // The single form checks against the saved schedule.
    const single = await request(t.app).post('/api/me/availability-rules').set(auth).send(slot(0, '11:00', '13:00'));
    expect(single.status).toBe(422);
    expect(single.body.errors).toEqual({ start_time_local: 'This time slot overlaps another slot on the same day' });
    expect((await request(t.app).post('/api/me/availability-rules').set(auth).send(slot(0, '17:00', '18:00'))).status).toBe(201);
  });

  it("deletes (soft) only the caller's own rule", async () => {
    const owner = await buildUser(t);
    const other = await buildUser(t);
    const { body } = await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday: 5, start_time_local: '10:00', end_time_local: '12:00' });
    expect((await request(t.app).delete(`/api/me/availability-rules/${body.rule.id}`).set(other.auth)).status).toBe(404);
    expect((await request(t.app).delete(`/api/me/availability-rules/${body.rule.id}`).set(owner.auth)).status).toBe(200);
    expect((await request(t.app).delete(`/api/me/availability-rules/${body.rule.id}`).set(owner.auth)).status).toBe(404);
    expect((await request(t.app).get('/api/me/availability-rules').set(owner.auth)).body.rules).toEqual([]);
  });

  it('requires a token', async () => {
    expect((await request(t.app).get('/api/me/availability-rules')).status).toBe(401);
  });
});

describe('exceptions', () => {
  it('creates, lists by date and deletes exceptions, including a day off', async () => {
    const { auth } = await buildUser(t);
    const off = await request(t.app).post('/api/me/exceptions').set(auth).send({ date: '2026-04-10', start_time_local: null, end_time_local: null });
    expect(off.status).toBe(201);
    expect(off.body.exception).toEqual({ id: expect.any(String), date: '2026-04-10', start_time_local: null, end_time_local: null });
    const custom = await request(t.app).post('/api/me/exceptions').set(auth).send({ date: '2026-04-03', start_time_local: '10:00', end_time_local: '12:00' });
    expect(custom.status).toBe(201);
    const list = await request(t.app).get('/api/me/exceptions').set(auth);
    expect(list.body.exceptions.map((e: any) => e.date)).toEqual(['2026-04-03', '2026-04-10']);
    expect((await request(t.app).delete(`/api/me/exceptions/${off.body.exception.id}`).set(auth)).status).toBe(200);
    expect((await request(t.app).get('/api/me/exceptions').set(auth)).body.exceptions).toHaveLength(1);
  });

  it('refuses exactly one null time, impossible dates and end before start with 422', async () => {
    const { auth } = await buildUser(t);
    for (const body of [
      { date: '2026-04-10', start_time_local: '10:00', end_time_local: null },
      { date: '2026-02-30', start_time_local: null, end_time_local: null },
      { date: '2026-04-10', start_time_local: '12:00', end_time_local: '10:00' },
    ]) {
      const res = await request(t.app).post('/api/me/exceptions').set(auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it("answers 404 for another user's exception", async () => {
    const a = await buildUser(t);
    const b = await buildUser(t);
    const { body } = await request(t.app).post('/api/me/exceptions').set(a.auth).send({ date: '2026-05-01' });
    expect((await request(t.app).delete(`/api/me/exceptions/${body.exception.id}`).set(b.auth)).status).toBe(404);
    expect((await request(t.app).get('/api/me/exceptions').set(a.auth)).body.exceptions).toHaveLength(1);
  });
});
