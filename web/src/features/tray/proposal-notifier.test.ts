import { describe, expect, it } from 'vitest';
import type { Proposal } from '@avail/shared/api/api-client.ts';
import { proposalNotification } from './proposal-notifier.ts';

describe('proposal notification (issue 24)', () => {
  it('opens that proposal on the dashboard', () => {
    const p = { id: 'ab 1', name: 'Vera', start: '2026-11-30T09:00:00Z', end: '2026-11-30T09:45:00Z' } as Proposal;
    expect(proposalNotification(p, 'Europe/Brussels')).toEqual({ title: 'New proposed time', body: 'Vera proposed Mon 30 Nov, 10:00–10:45', route: '/app/dashboard#proposal-ab%201' });
  });
});
