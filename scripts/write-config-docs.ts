// Rewrites the README's configuration tables from the one schema (the package's config.ts): `npm run docs:config`.
import fs from 'node:fs';
import { variablesTable } from '@gateway/config';

const README = 'README.md';
const groups = ['server', 'security', 'testing'] as const;

let readme = fs.readFileSync(README, 'utf8');
for (const group of groups) {
  // Each table follows its marker comment and runs to the first line that is not a table row.
  const marker = `<!-- config:${group} -->`;
  const pattern = new RegExp(`${marker}\\n(?:\\|.*\\n)*`);
  if (!pattern.test(readme)) throw new Error(`${README} has no ${marker} marker`);
  readme = readme.replace(pattern, `${marker}\n${variablesTable(group)}\n`);
}
fs.writeFileSync(README, readme);
