// The tool contract's commands on the 1,000-procedure test catalogue (`npm run bench -- --only contract`): how long
// `vovk-mcp-gateway tools check` takes end to end (a child Node loads the test build's MCP route under tsx with
// GATEWAY_CATALOGUE_PROCEDURES=1000, then the catalogue's contract is compared with a lock of it), `tools lock`, the
// comparison alone, and the same check on the product's catalogue (`npm run tools:check`) for scale.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contractChanges } from '../packages/vovk-mcp-gateway/dist/shared/contract-changes.js';
import { parseContract } from '../packages/vovk-mcp-gateway/dist/shared/tool-contract.js';

const BIN = path.resolve('packages/vovk-mcp-gateway/bin/vovk-mcp-gateway.mjs');
/** What next.config.mjs compiles in, for the route loaded outside Next.js (GATEWAY_TEST_BUILD picks the flavour). */
const DEFINES = './scripts/build-defines.mjs';
/** Comparisons of the contract with itself timed in one process, after one to warm up. */
const COMPARISONS = 20;

/** Runs `tools <action>` on the catalogue `env` selects with the lock `lock`: its wall time in ms. */
function timedCommand(action, lock, env) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'tools', action, '--lock', lock, '--import', DEFINES], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`tools ${action} exited ${run.status}: ${run.stderr || run.stdout}`);
  return ms;
}

/** Markdown lines: min–max (median) over `rounds` runs of each command, on the generated catalogue and the product's. */
export function contractLines({ median, span }, { rounds }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vovk-contract-bench-'));
  const catalogues = [
    { name: 'test build, GATEWAY_CATALOGUE_PROCEDURES=1000', env: { GATEWAY_TEST_BUILD: '1', GATEWAY_CATALOGUE_PROCEDURES: '1000' } },
    { name: 'production catalogue (`npm run tools:check`)', env: { GATEWAY_TEST_BUILD: '0' } },
  ];
  const rows = [];
  try {
    for (const [index, { name, env }] of catalogues.entries()) {
      const lock = path.join(dir, `lock-${index}.json`);
      const times = { lock: [], check: [] };
      for (let round = 0; round < rounds; round++) {
        times.lock.push(timedCommand('lock', lock, env));
        times.check.push(timedCommand('check', lock, env));
      }
      const contract = parseContract(fs.readFileSync(lock, 'utf8'), 'lock');
      contractChanges(contract, contract);
      const started = performance.now();
      for (let i = 0; i < COMPARISONS; i++) contractChanges(contract, structuredClone(contract));
      const compareMs = (performance.now() - started) / COMPARISONS;
      const kib = fs.statSync(lock).size / 1024;
      const figure = (values) => `${span(values, 0)} (${median(values).toFixed(0)})`;
      rows.push(`| ${name} | ${contract.tools.length} | ${kib.toFixed(0)} KiB | ${figure(times.check)} | ${figure(times.lock)} | ${compareMs.toFixed(1)} |`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return [
    `\`vovk-mcp-gateway tools check\` and \`tools lock\`, wall time of the whole command (Node, tsx loading the MCP route, the comparison), min–max (median) over ${rounds} runs; the comparison alone in one process, mean of ${COMPARISONS}:`,
    '',
    '| Catalogue | Tools | Lock file | `tools check`, ms | `tools lock`, ms | comparison alone, ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}
