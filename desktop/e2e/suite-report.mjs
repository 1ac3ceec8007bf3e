/**
 * Counts of the real-Electron suite from Playwright's JSON report (`npm test`, scripts/run-tests.mjs;
 * https://playwright.dev/docs/test-reporters#json-reporter): passed, failed and skipped tests, and
 * why the skipped ones were skipped — every spec skipped for want of Electron's binary under the one
 * reason "no Electron binary on this machine" (docs/desktop-release.md "Real-Electron suite"),
 * others under their own skip annotation.
 */

const NO_BINARY = 'no Electron binary on this machine';

/**
 * @typedef {{ type: string, description?: string }} Annotation
 * @typedef {{ status?: string, annotations?: Annotation[], results?: Array<{ annotations?: Annotation[] }> }} ReportTest
 * @typedef {{ specs?: Array<{ tests?: ReportTest[] }>, suites?: ReportSuite[] }} ReportSuite
 * @typedef {{ stats?: { expected?: number, unexpected?: number, flaky?: number, skipped?: number }, suites?: ReportSuite[] }} Report
 */

/**
 * @param {Report | null} report the parsed JSON report, or null when the runner wrote none
 * @returns {{ passed: number, failed: number, skipped: number, skipReasons: string[] } | null}
 *   null when there is no report with `stats` (the caller counts the crash as a failure);
 *   `skipReasons` like "4 real-Electron tests: no Electron binary on this machine".
 */
export function desktopSuiteCounts(report) {
  if (!report?.stats) return null;
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
  /** @type {Map<string, number>} */
  const byReason = new Map();
  /** @param {ReportSuite[]} suites */
  const walk = (suites) => {
    for (const suite of suites) {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== 'skipped') continue;
          const notes = [...(test.annotations ?? []), ...(test.results ?? []).flatMap((r) => r.annotations ?? [])];
          const description = notes.find((a) => a.type === 'skip' && a.description)?.description ?? 'skipped without a reason';
          const reason = description.startsWith(NO_BINARY) ? NO_BINARY : description;
          byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
        }
      }
      walk(suite.suites ?? []);
    }
  };
  walk(report.suites ?? []);
  const skipReasons = [...byReason].map(([reason, n]) => `${n} real-Electron test${n === 1 ? '' : 's'}: ${reason}`);
  return { passed: expected + flaky, failed: unexpected, skipped, skipReasons };
}
