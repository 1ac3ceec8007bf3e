import { describe, expect, it } from 'vitest';
import { validateProposal } from './propose-dialog.tsx';

describe('validateProposal (the propose dialog’s client checks, with the server’s messages)', () => {
  it('requires a name and an e-mail', () => {
    expect(validateProposal('', '')).toEqual({ name: 'Name is required', email: 'Email is required' });
    expect(validateProposal('   ', '  ')).toEqual({ name: 'Name is required', email: 'Email is required' });
  });
  it('rejects malformed addresses and header-breaking characters', () => {
    for (const bad of ['vera', 'vera@', 'vera@example', 'a b@example.org', 'a@b.org, c@d.org', '<a@b.org>', 'x'.repeat(250) + '@b.org']) {
      expect(validateProposal('Vera', bad).email, bad).toBe('Email is invalid');
    }
  });
  it('accepts a normal proposal and caps the name at 100 characters', () => {
    expect(validateProposal('Vera Visitor', ' vera@example.org ')).toEqual({});
    expect(validateProposal('x'.repeat(101), 'vera@example.org').name).toBe('Name must be no more than 100 characters');
  });
});
