import { describe, expect, it } from 'vitest';
import { deviceIdOf } from '../../src/rx/avail-database.ts';
import { readPending } from '../../src/rx/local-writes.ts';
import {
  ALREADY_DECIDED_MESSAGE,
  NOT_CONFIRMED_MESSAGE,
  NOT_ON_DEVICE_MESSAGE,
  proposalActionRefusal,
  proposalRequestFields,
  requestProposalActionLocal,
} from '../../src/rx/proposal-writes.ts';
import type { ProposalDoc } from '../../src/rx/rx-schemas.ts';
import { newTestDatabase } from './test-database.ts';

const T = Date.parse('2026-11-30T09:00:00Z');
function proposal(over: Partial<ProposalDoc> = {}): ProposalDoc {
  return {
    id: 'p-1', start_ms: T, end_ms: T + 1_800_000, name: 'Vera', email: 'vera@example.org', note: '', visitor_timezone: 'Europe/London',
    visitor_language: 'en', status: 'pending', uid: null, sequence: 0, created_at: T - 86_400_000, decided_at: null, message: '',
    calendar_name: null, request_action: null, request_message: null, request_connection_id: null, request_calendar_id: null,
    request_error: null, edited_at: 1, device_id: 'server', updated_at: 5, ...over,
  };
}

describe('proposal request fields (pure)', () => {
  it('confirm carries the target, decline and cancel the trimmed message', () => {
    expect(proposalRequestFields({ action: 'confirm', target: { connection_id: 'c1', calendar_id: 'work' } })).toEqual({
      request_action: 'confirm', request_message: null, request_connection_id: 'c1', request_calendar_id: 'work',
    });
    expect(proposalRequestFields({ action: 'confirm' }).request_connection_id).toBeNull();
    expect(proposalRequestFields({ action: 'decline', message: '  Sorry, away  ' })).toEqual({
      request_action: 'decline', request_message: 'Sorry, away', request_connection_id: null, request_calendar_id: null,
    });
    expect(proposalRequestFields({ action: 'cancel' }).request_message).toBe('');
    expect(() => proposalRequestFields({ action: 'decline', message: 'x'.repeat(1001) })).toThrow('Message must be no more than 1000 characters');
  });
  it('confirm and decline a pending proposal, cancel a confirmed one', () => {
    expect(proposalActionRefusal('pending', 'confirm')).toBeNull();
    expect(proposalActionRefusal('pending', 'decline')).toBeNull();
    expect(proposalActionRefusal('confirmed', 'confirm')).toBe(ALREADY_DECIDED_MESSAGE);
    expect(proposalActionRefusal('pending', 'cancel')).toBe(NOT_CONFIRMED_MESSAGE);
    expect(proposalActionRefusal('confirmed', 'cancel')).toBeNull();
  });
});

describe('requestProposalActionLocal (RxDB + Dexie on fake-indexeddb)', () => {
  it('writes only the request fields with the device stamp and marks the write pending', async () => {
    const db = await newTestDatabase();
    const device = await deviceIdOf(db);
    await db.proposals.insert(proposal());
    const doc = await requestProposalActionLocal(db, device, 'p-1', { action: 'decline', message: 'Away that week' });
    expect(doc).toMatchObject({ status: 'pending', request_action: 'decline', request_message: 'Away that week', device_id: device });
    expect(doc.edited_at).toBeGreaterThan(1);
    const { request_action, request_message, edited_at, device_id, ...rest } = doc;
    const { request_action: _a, request_message: _m, edited_at: _e, device_id: _d, ...before } = proposal();
    expect(rest).toEqual(before);
    expect(await readPending(db)).toEqual({ 'proposals/p-1': expect.objectContaining({ at: edited_at, wall: expect.any(Number) }) });
    void request_action, void request_message, void device_id;
  });

  it('refuses an action that does not fit the status, or an unknown proposal, and writes nothing', async () => {
    const db = await newTestDatabase();
    await db.proposals.insert(proposal({ status: 'declined' }));
    await expect(requestProposalActionLocal(db, 'd', 'p-1', { action: 'confirm' })).rejects.toThrow(ALREADY_DECIDED_MESSAGE);
    await expect(requestProposalActionLocal(db, 'd', 'p-1', { action: 'cancel' })).rejects.toThrow(NOT_CONFIRMED_MESSAGE);
    await expect(requestProposalActionLocal(db, 'd', 'nope', { action: 'confirm' })).rejects.toThrow(NOT_ON_DEVICE_MESSAGE);
    expect((await db.proposals.findOne('p-1').exec())!.request_action).toBeNull();
    expect(await readPending(db)).toEqual({});
  });
});
