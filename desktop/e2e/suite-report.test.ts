import { describe, expect, it } from 'vitest';
import { desktopSuiteCounts } from './suite-report.mjs';

const skippedTest = (description: string) => ({
  status: 'skipped',
  annotations: [{ type: 'skip', description }],
  results: [{ annotations: [{ type: 'skip', description }] }],
});

describe('desktopSuiteCounts (npm test summary of the real-Electron suite)', () => {
  it('counts specs skipped for want of a binary as skipped, with the reason, never as passed', () => {
    const noBinary = 'no Electron binary on this machine (require(\'electron\') threw "Electron failed to install correctly…")';
    const report = {
      stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 4 },
      suites: [{ specs: [1, 2, 3, 4].map(() => ({ tests: [skippedTest(noBinary)] })) }],
    };
    expect(desktopSuiteCounts(report)).toEqual({
      passed: 0,
      failed: 0,
      skipped: 4,
      skipReasons: ['4 real-Electron tests: no Electron binary on this machine'],
    });
  });

  it('with a binary: passed and flaky count as passed, failures as failed, another skip under its own reason (nested suites too)', () => {
    const report = {
      stats: { expected: 2, unexpected: 1, flaky: 1, skipped: 1 },
      suites: [
        {
          specs: [{ tests: [{ status: 'expected' }] }],
          suites: [{ specs: [{ tests: [skippedTest('no OS keyring …')] }] }],
        },
      ],
    };
    expect(desktopSuiteCounts(report)).toEqual({ passed: 3, failed: 1, skipped: 1, skipReasons: ['1 real-Electron test: no OS keyring …'] });
  });

  it('reports no counts when the runner wrote no report (the caller counts a failure)', () => {
    expect(desktopSuiteCounts(null)).toBeNull();
    expect(desktopSuiteCounts({ suites: [] })).toBeNull();
  });
});
