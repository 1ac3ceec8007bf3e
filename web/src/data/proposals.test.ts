import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, type Proposal } from '@avail/shared/api/api-client.ts';
import { ProposalRequestError } from '@avail/shared/rx/proposal-writes.ts';
import type { ProposalDoc } from '@avail/shared/rx/rx-schemas.ts';

const queued: Array<{ id: string; req: unknown }> = [];
vi.mock('@avail/shared/rx/proposal-writes.ts', async (orig) => ({
  ...(await orig<typeof import('@avail/shared/rx/proposal-writes.ts')>()),
  requestProposalActionLocal: vi.fn(async (_db: unknown, _device: string, id: string, req: unknown) => void queued.push({ id, req })),
}));
const { actionErrorText, decideProposal, newestFirst, pendingSoonestFirst, proposalFromDoc, proposalFromRest, withAnswers } = await import('./proposals.ts');

const T = Date.parse('2026-11-30T09:00:00Z');
const doc = (over: Partial<ProposalDoc> = {}): ProposalDoc => ({
  id: 'p-1', start_ms: T, end_ms: T + 1_800_000, name: 'Vera', email: 'vera@example.org', note: 'Hi', visitor_timezone: 'Europe/London',
  visitor_language: 'en', status: 'pending', uid: null, sequence: 0, created_at: T - 1000, decided_at: null, message: '',
  calendar_name: null, request_action: null, request_message: null, request_connection_id: null, request_calendar_id: null,
  request_error: null, edited_at: 1, device_id: 'server', updated_at: 5, ...over,
});
const rest = (over: Partial<Proposal> = {}): Proposal => ({
  id: 'p-1', start: '2026-11-30T09:00:00Z', end: '2026-11-30T09:30:00Z', name: 'Vera', email: 'vera@example.org', note: 'Hi',
  visitor_timezone: 'Europe/London', visitor_language: 'en', created_at: new Date(T - 1000).toISOString(), status: 'confirmed', uid: 'u@avail',
  sequence: 0, decided_at: '2026-11-29T10:00:00Z', message: '', calendar: { connection_id: 'c', calendar_id: 'k', name: 'Work' }, pending_action: null, error: null,
  ...over,
});
const LOCAL = { db: {} as never, deviceId: 'dev-1' };

afterEach(() => {
  vi.restoreAllMocks();
  queued.length = 0;
});

describe('proposal views', () => {
  it('device documents and REST answers read the same', () => {
    const fromDoc = proposalFromDoc(doc({ status: 'confirmed', decided_at: Date.parse('2026-11-29T10:00:00Z'), calendar_name: 'Work' }));
    expect(fromDoc).toEqual(proposalFromRest(rest()));
    expect(proposalFromDoc(doc({ request_action: 'decline' }))).toMatchObject({ pending_action: 'decline', error: null });
    // Refused by the server: the request stays with its reason; the proposal is offered again.
    const refused = doc({ request_action: 'confirm', request_error: 'That time is no longer free.' });
    expect(proposalFromDoc(refused)).toMatchObject({ pending_action: null, error: 'That time is no longer free.' });
    // A newer request of this device, not acknowledged yet: pending again, the old reason hidden.
    expect(proposalFromDoc(refused, true)).toMatchObject({ pending_action: 'confirm', error: null });
  });
  it('newest first; the tray lists pending ones soonest first', () => {
    const a = proposalFromDoc(doc({ id: 'a', created_at: 1, start_ms: T + 5 }));
    const b = proposalFromDoc(doc({ id: 'b', created_at: 2, start_ms: T + 1 }));
    const c = proposalFromDoc(doc({ id: 'c', created_at: 3, status: 'declined' }));
    expect(newestFirst([a, b, c]).map((p) => p.id)).toEqual(['c', 'b', 'a']);
    expect(pendingSoonestFirst([a, b, c]).map((p) => p.id)).toEqual(['b', 'a']);
  });
  it('an action\'s answer shows until the device has it, never over a pending request', () => {
    const pending = proposalFromDoc(doc());
    const answer = proposalFromRest(rest());
    const answers = new Map([['p-1', answer]]);
    expect(withAnswers([pending], answers)[0].status).toBe('confirmed');
    expect(withAnswers([proposalFromDoc(doc({ request_action: 'cancel' }))], answers)[0].status).toBe('pending');
  });
});

describe('decideProposal', () => {
  it('online: the REST call and its answer', async () => {
    const confirm = vi.spyOn(api, 'confirmProposal').mockResolvedValue({ proposal: rest() });
    const res = await decideProposal(LOCAL, 'p-1', { action: 'confirm' }, true);
    expect(confirm).toHaveBeenCalledWith('p-1', undefined);
    expect(res).toMatchObject({ kind: 'done', proposal: { status: 'confirmed', calendar_name: 'Work' } });
    expect(queued).toEqual([]);
  });
  it('online but the network fails: queued on the device', async () => {
    vi.spyOn(api, 'declineProposal').mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await decideProposal(LOCAL, 'p-1', { action: 'decline', message: 'Sorry' }, true)).toEqual({ kind: 'queued' });
    expect(queued).toEqual([{ id: 'p-1', req: { action: 'decline', message: 'Sorry' } }]);
  });
  it('offline: queued without asking the server', async () => {
    const cancel = vi.spyOn(api, 'cancelProposal');
    expect(await decideProposal(LOCAL, 'p-1', { action: 'cancel' }, false)).toEqual({ kind: 'queued' });
    expect(cancel).not.toHaveBeenCalled();
  });
  it('a 409 is the server\'s answer, not queued; its text is shown verbatim', async () => {
    const conflict = new ApiError('That time is no longer free.', 409, { error: 'That time is no longer free.', code: 'not_free' });
    vi.spyOn(api, 'confirmProposal').mockRejectedValue(conflict);
    await expect(decideProposal(LOCAL, 'p-1', { action: 'confirm' }, true)).rejects.toBe(conflict);
    expect(queued).toEqual([]);
    expect(actionErrorText(conflict)).toBe('That time is no longer free.');
    expect(actionErrorText(new ProposalRequestError('This proposal has already been decided.'))).toBe('This proposal has already been decided.');
    expect(actionErrorText(new TypeError('x'))).toBe('Unable to connect. Please check your internet connection and try again.');
  });
  it('without a device database the network failure is the error', async () => {
    vi.spyOn(api, 'confirmProposal').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(decideProposal(null, 'p-1', { action: 'confirm' }, false)).rejects.toThrow('Failed to fetch');
  });
});
