import { describe, expect, it } from 'vitest';
import { createTrayCommandLedger, LEDGER_MAX_IDS } from './tray-command-ledger.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe('tray command ledger (issue 25)', () => {
  it('a command delivered twice is carried out once: while it runs and after it is done, also after a page reload', () => {
    const storage = memoryStorage();
    const ledger = createTrayCommandLedger(storage);
    expect(ledger.begin('c-1')).toBe('new');
    expect(ledger.begin('c-1')).toBe('running');
    ledger.finish('c-1');
    expect(ledger.begin('c-1')).toBe('done');
    // The page reloads (same window storage): still done.
    expect(createTrayCommandLedger(storage).begin('c-1')).toBe('done');
    expect(createTrayCommandLedger(storage).begin('c-2')).toBe('new');
  });

  it(`remembers the last ${LEDGER_MAX_IDS} ids; without storage it works in memory`, () => {
    const storage = memoryStorage();
    const ledger = createTrayCommandLedger(storage);
    for (let i = 0; i <= LEDGER_MAX_IDS; i++) {
      ledger.begin(`c-${i}`);
      ledger.finish(`c-${i}`);
    }
    expect(ledger.begin('c-0')).toBe('new');
    expect(ledger.begin(`c-${LEDGER_MAX_IDS}`)).toBe('done');
    const bare = createTrayCommandLedger(null);
    bare.begin('x');
    bare.finish('x');
    expect(bare.begin('x')).toBe('done');
  });
});
