// Fails when a requirement of the formatting spec has no test naming it, or a test names an unknown requirement.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { requirements } from '../requirements';

const testDirs = ['test', 'e2e'];
const testFile = /\.(test|spec)\.tsx?$/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return testFile.test(entry.name) ? [full] : [];
  });
}

/** Requirement ids named in test titles: `test('[R04][R10] …'` or `test.each(…)('[R05] …'`. */
function namedRequirements(): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const file of testDirs.flatMap(testFiles)) {
    const source = fs.readFileSync(file, 'utf8');
    for (const title of source.matchAll(/(?:test|it)(?:\.each\([\s\S]*?\))?\(\s*['"`]((?:\[R\d+\])+)/g)) {
      for (const [id] of title[1].matchAll(/R\d+/g)) named.set(id, [...(named.get(id) ?? []), file]);
    }
  }
  return named;
}

test('every requirement of the formatting spec is named by at least one test', () => {
  const named = namedRequirements();
  const missing = Object.keys(requirements).filter((id) => !named.has(id));
  expect(missing).toEqual([]);
});

test('every requirement a test names exists', () => {
  const unknown = [...namedRequirements().keys()].filter((id) => !(id in requirements));
  expect(unknown).toEqual([]);
});

test('docs/mcp-formatting.md states every requirement, each once, with its id', () => {
  const doc = fs.readFileSync('docs/mcp-formatting.md', 'utf8');
  const rows = [...doc.matchAll(/^\| (R\d+) \|/gm)].map((row) => row[1]);
  expect(rows.toSorted()).toEqual(Object.keys(requirements).toSorted());
});
