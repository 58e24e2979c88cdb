// Tallies the conformance runs (each run's -o folder) against the revisions' requirements and the expected failures.
import fs from 'node:fs';
import path from 'node:path';

const [reportsDir, expectedFile, requirementsDir, reportFile] = process.argv.slice(2);
const RUNS = ['2026-07-28', '2025-11-25', 'all'];

/** The `- name` items of `section` (a top-level key) of a YAML list file; comments and other sections skipped. */
function listItems(file, section) {
  const items = [];
  let current;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const key = line.match(/^([\w-]+):/);
    if (key) current = key[1];
    const item = line.match(/^\s+-\s+([\w/.:-]+)\s*(#.*)?$/);
    if (item && current === section) items.push(item[1]);
  }
  return items;
}

const expected = new Set(listItems(expectedFile, 'server'));
const requiredOf = (revision) => new Set(listItems(path.join(requirementsDir, `${revision}.yaml`), 'server'));
const requiredBy = Object.fromEntries(RUNS.filter((run) => run !== 'all').map((run) => [run, requiredOf(run)]));
// A required scenario must pass: listing one would hide a conformance failure.
const isRequired = (scenario) => Object.values(requiredBy).some((required) => required.has(scenario));
const wronglyListed = [...expected].filter(isRequired);

/** scenario → its checks, from a run's output folder (`server-<scenario>-<timestamp>/checks.json`). */
function scenariosOf(dir) {
  if (!fs.existsSync(dir)) return new Map();
  return new Map(
    fs.readdirSync(dir).map((folder) => [
      folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, ''),
      JSON.parse(fs.readFileSync(path.join(dir, folder, 'checks.json'), 'utf8')),
    ]),
  );
}

/**
 * One run's verdict. A required scenario fails on a FAILURE check (the suite's own rule for a revision); any other
 * scenario fails on a FAILURE or WARNING, and is then expected when the expected-failures file lists it — an entry
 * that passes is stale, an unlisted failure is unexpected.
 */
function tallyRun(run) {
  const required = requiredBy[run] ?? new Set();
  const scenarios = scenariosOf(path.join(reportsDir, run));
  const tally = { passed: [], failed: [], expected: [], stale: [], unexpected: [], missing: [] };
  for (const scenario of required) if (!scenarios.has(scenario)) tally.missing.push(scenario);
  for (const [scenario, checks] of scenarios) {
    if (required.has(scenario)) {
      (checks.some(({ status }) => status === 'FAILURE') ? tally.failed : tally.passed).push(scenario);
      continue;
    }
    const failing = checks.some(({ status }) => status === 'FAILURE' || status === 'WARNING');
    if (failing) (expected.has(scenario) ? tally.expected : tally.unexpected).push(scenario);
    else (expected.has(scenario) ? tally.stale : tally.passed).push(scenario);
  }
  const failed = tally.failed.length + tally.missing.length + tally.unexpected.length + tally.stale.length;
  const counts = {
    passed: tally.passed.length,
    failed: failed + (scenarios.size ? 0 : 1),
    expected: tally.expected.length,
  };
  const requiredPassed = tally.passed.filter((scenario) => required.has(scenario)).length;
  const ofRequired = required.size ? ` (${requiredPassed}/${required.size} required)` : '';
  // The run's line, here and in the test summary: "41 passed (37/37 required), 0 failed, 9 expected failures".
  const line = `${counts.passed} passed${ofRequired}, ${counts.failed} failed, ${counts.expected} expected failures`;
  return { ...counts, line, scenarios: tally };
}

const runs = Object.fromEntries(RUNS.map((run) => [run, tallyRun(run)]));
for (const [run, { line, scenarios }] of Object.entries(runs)) {
  console.log(`conformance ${run === 'all' ? '--suite all' : `--requirements ${run}`}: ${line}`);
  for (const kind of ['failed', 'missing', 'unexpected', 'stale']) {
    if (scenarios[kind].length) console.log(`  ${kind}: ${scenarios[kind].join(', ')}`);
  }
}
if (wronglyListed.length) console.log(`expected-failures lists required scenarios: ${wronglyListed.join(', ')}`);

const total = (key) => Object.values(runs).reduce((sum, run) => sum + run[key], 0);
const failed = total('failed') + wronglyListed.length;
const report = { passed: total('passed'), failed, expected: total('expected'), runs, wronglyListed };
fs.writeFileSync(reportFile, JSON.stringify(report, null, 2));
process.exit(report.failed ? 1 : 0);
