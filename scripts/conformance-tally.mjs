// Tallies an MCP conformance run (its -o folder) against the expected-failures file; writes a report for the summary.
import fs from 'node:fs';
import path from 'node:path';

const [outputDir, expectedFile, reportFile] = process.argv.slice(2);
const expected = new Set(
  fs
    .readFileSync(expectedFile, 'utf8')
    .split('\n')
    .map((line) => line.match(/^\s*-\s*([\w-]+)/)?.[1])
    .filter(Boolean),
);
const scenarios = fs.existsSync(outputDir) ? fs.readdirSync(outputDir) : [];
const tally = { passed: [], expectedFailures: [], unexpectedFailures: [], stale: [] };
for (const folder of scenarios) {
  const checks = JSON.parse(fs.readFileSync(path.join(outputDir, folder, 'checks.json'), 'utf8'));
  const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
  const failed = checks.some(({ status }) => status === 'FAILURE' || status === 'WARNING');
  if (failed) (expected.has(scenario) ? tally.expectedFailures : tally.unexpectedFailures).push(scenario);
  else (expected.has(scenario) ? tally.stale : tally.passed).push(scenario);
}
console.log(
  `conformance: ${tally.passed.length} scenarios passed, ${tally.expectedFailures.length} expected failures ` +
    `(${tally.expectedFailures.join(', ')}), ${tally.unexpectedFailures.length} unexpected failures, ${tally.stale.length} stale`,
);
const failed = tally.unexpectedFailures.length + tally.stale.length + (scenarios.length ? 0 : 1);
fs.writeFileSync(reportFile, JSON.stringify({ passed: tally.passed.length, failed, scenarios: tally }, null, 2));
