import { describe, expect, it } from 'vitest';
import { en } from '@avail/shared/i18n/messages/en.ts';
import { createVisitorI18n } from '@avail/shared/i18n/visitor-i18n.ts';
import { validateProposal } from './propose-dialog.tsx';

const t = createVisitorI18n('en', en).t;
const texts = (errors: ReturnType<typeof validateProposal>) => Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, t(`propose.${v}`)]));

describe('validateProposal (the propose dialog’s client checks, with the server’s messages in English)', () => {
  it('requires a name and an e-mail', () => {
    expect(texts(validateProposal('', ''))).toEqual({ name: 'Name is required', email: 'Email is required' });
    expect(texts(validateProposal('   ', '  '))).toEqual({ name: 'Name is required', email: 'Email is required' });
  });
  it('rejects malformed addresses and header-breaking characters', () => {
    for (const bad of ['vera', 'vera@', 'vera@example', 'a b@example.org', 'a@b.org, c@d.org', '<a@b.org>', 'x'.repeat(250) + '@b.org']) {
      expect(texts(validateProposal('Vera', bad)).email, bad).toBe('Email is invalid');
    }
  });
  it('accepts a normal proposal and caps the name at 100 characters', () => {
    expect(validateProposal('Vera Visitor', ' vera@example.org ')).toEqual({});
    expect(texts(validateProposal('x'.repeat(101), 'vera@example.org')).name).toBe('Name must be no more than 100 characters');
  });
});
