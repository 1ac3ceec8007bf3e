import { describe, expect, it } from 'vitest';
import { HOST_TONES, hostInitials, hostTone } from './host-initials.ts';

describe('hostInitials', () => {
  it('takes the first letter of the first and the last word', () => {
    expect(hostInitials('Olivia Owner')).toBe('OO');
    expect(hostInitials('  olivia  de   wit ')).toBe('OW');
    expect(hostInitials('Émile Zola')).toBe('ÉZ');
    expect(hostInitials('(Dr.) Ann Lee')).toBe('DL');
  });
  it('gives one letter for one word and ? for none', () => {
    expect(hostInitials('olivia')).toBe('O');
    expect(hostInitials('')).toBe('?');
    expect(hostInitials(' -- ')).toBe('?');
  });
  it('keeps letters outside the BMP whole', () => {
    expect(hostInitials('𝒜lice 𝒵oe')).toBe('𝒜𝒵');
  });
});

describe('hostTone', () => {
  it('is stable per name (case and outer spaces aside) and within range', () => {
    expect(hostTone('Olivia Owner')).toBe(hostTone(' olivia owner '));
    const tones = new Set(['Ann', 'Bob', 'Cleo', 'Dirk', 'Eva', 'Fien', 'Gert', 'Hana', 'Ines', 'Jan'].map(hostTone));
    for (const t of tones) expect(t >= 0 && t < HOST_TONES).toBe(true);
    expect(tones.size).toBeGreaterThan(2);
  });
});
