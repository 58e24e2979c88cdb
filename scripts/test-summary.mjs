// Prints one closing line "N passed, N failed" over the vitest, Playwright and conformance reports (each conformance
// run on a line of its own); exits 1 if any failed.
import fs from 'node:fs';

function counts(file) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, skipped: 0, missing: true };
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
  }
  if (report.stats) {
    const { expected, unexpected, flaky, skipped } = report.stats;
    return { passed: expected, failed: unexpected + flaky, skipped };
  }
  return { passed: report.passed, failed: report.failed, skipped: 0, runs: report.runs };
}

const total = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
  const { passed, failed, skipped, missing, runs } = counts(file);
  console.log(`${file}: ${missing ? 'no report (the run did not finish)' : `${passed} passed, ${failed} failed, ${skipped} skipped`}`);
  for (const [name, run] of Object.entries(runs ?? {})) console.log(`  ${name}: ${run.line}`);
  total.passed += passed;
  total.failed += failed;
  total.skipped += skipped;
}
// A skipped test proves nothing: count it as a failure of the run.
const failed = total.failed + total.skipped;
console.log(`total: ${total.passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
