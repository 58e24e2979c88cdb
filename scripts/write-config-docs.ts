// Rewrites the README's configuration tables from the variables' schemas (the package's config.ts, then the reference
// app's own in src/lib/settings.ts): `npm run docs:config`.
import fs from 'node:fs';
import { VARIABLES, variablesTable } from '@gateway/config';
import { APP_VARIABLES } from '@/lib/settings';

const README = 'README.md';
const groups = ['server', 'security', 'testing'] as const;

let readme = fs.readFileSync(README, 'utf8');
for (const group of groups) {
  // Each table follows its marker comment and runs to the first line that is not a table row.
  const marker = `<!-- config:${group} -->`;
  const pattern = new RegExp(`${marker}\\n(?:\\|.*\\n)*`);
  if (!pattern.test(readme)) throw new Error(`${README} has no ${marker} marker`);
  readme = readme.replace(pattern, `${marker}\n${variablesTable(group, { ...VARIABLES, ...APP_VARIABLES })}\n`);
}
fs.writeFileSync(README, readme);
