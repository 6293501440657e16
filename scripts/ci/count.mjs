#!/usr/bin/env node
// Counts one CI stage's checks from its report: `node scripts/ci/count.mjs KIND REPORT EXIT`
// prints "PASSED FAILED NOTE". KIND is
//   exit        one check: passed when EXIT is 0;
//   vitest      a vitest JSON report (--reporter=json);
//   playwright  a Playwright JSON report;
//   lines       a log whose last "<word>: N passed, N failed" line holds the counts.
// Whatever a reporter calls it, a file that cannot load, a failing hook and an unhandled error
// count as failed (vitest 4 reports them as a failed file with no failed test, or as
// success: false), a missing or unreadable report counts as one failure, and a stage that
// exits non-zero with nothing counted failed counts as one failure: a failure is never lost.
import { existsSync, readFileSync } from "node:fs";

/**
 * The passed and failed checks of a vitest JSON report.
 * @example vitestCounts({ numPassedTests: 3, numFailedTests: 0, testResults: [], success: true }) // { passed: 3, failed: 0, notes: [] }
 */
export function vitestCounts(r) {
  let passed = r.numPassedTests ?? 0;
  let failed = r.numFailedTests ?? 0;
  const notes = [];
  for (const file of r.testResults ?? []) {
    const assertions = file.assertionResults ?? [];
    if (file.status === "failed" && !assertions.some((a) => a.status === "failed")) {
      // An import error, a failing beforeAll/afterAll, or an error outside any test.
      failed += 1;
      notes.push(`${file.name}: the file failed outside its tests`);
    }
  }
  if (r.success === false && failed === 0) {
    failed += 1;
    notes.push("the run reported success: false (an unhandled error)");
  }
  passed = Math.max(0, passed);
  return { passed, failed, notes };
}

/**
 * The passed and failed checks of a Playwright JSON report: expected and flaky pass,
 * unexpected fail, and every error outside a test (a spec that cannot load, a global set-up)
 * fails once.
 * @example playwrightCounts({ stats: { expected: 2, unexpected: 1, flaky: 0 }, errors: [] }) // { passed: 2, failed: 1, notes: [] }
 */
export function playwrightCounts(r) {
  const s = r.stats ?? {};
  const errors = (r.errors ?? []).length;
  const notes = errors > 0 ? [`${errors} error(s) outside the tests`] : [];
  return {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: (s.unexpected ?? 0) + errors,
    notes,
  };
}

/**
 * The counts of the last "N passed, N failed" line of a log (one word and a colon may stand
 * before it).
 * @example linesCounts("pack: ok x\npack: 3 passed, 1 failed\n") // { passed: 3, failed: 1, notes: [] }
 */
export function linesCounts(text) {
  const matches = [...text.matchAll(/^(?:[\w-]+: )?(\d+) passed, (\d+) failed\b/gm)];
  const last = matches.at(-1);
  if (!last) return { passed: 0, failed: 1, notes: ["no 'N passed, N failed' line"] };
  return { passed: Number(last[1]), failed: Number(last[2]), notes: [] };
}

/**
 * One stage's counts from its kind, report path and exit code.
 * @example countStage("exit", "", 0) // { passed: 1, failed: 0, notes: [] }
 */
export function countStage(kind, report, exitCode) {
  let c;
  if (kind === "exit") {
    c = exitCode === 0 ? { passed: 1, failed: 0, notes: [] } : { passed: 0, failed: 1, notes: [] };
  } else if (!report || !existsSync(report)) {
    c = { passed: 0, failed: 1, notes: [`no report at ${report || "(none)"}`] };
  } else {
    try {
      const text = readFileSync(report, "utf8");
      if (kind === "vitest") c = vitestCounts(JSON.parse(text));
      else if (kind === "playwright") c = playwrightCounts(JSON.parse(text));
      else if (kind === "lines") c = linesCounts(text);
      else throw new Error(`unknown kind ${kind}`);
    } catch (e) {
      c = { passed: 0, failed: 1, notes: [`unreadable report: ${e.message}`] };
    }
  }
  if (exitCode === 124) c.notes.push("stopped at its time limit");
  if (exitCode !== 0 && c.failed === 0) {
    c.failed = 1;
    c.notes.push(`exit ${exitCode} with no failure counted`);
  }
  return c;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [kind, report, exit] = process.argv.slice(2);
  const c = countStage(kind, report, Number(exit));
  console.log(`${c.passed} ${c.failed} ${c.notes.join("; ")}`.trimEnd());
}
