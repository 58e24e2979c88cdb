// Rewrites the configuration tables of docs/configuration.md from the one schema (the package's config.ts):
// `npm run docs:config`.
import fs from 'node:fs';
import { variablesTable } from '@gateway/config';

const PAGE = 'docs/configuration.md';
const groups = ['server', 'security', 'testing'] as const;

let page = fs.readFileSync(PAGE, 'utf8');
for (const group of groups) {
  // Each table follows its marker comment and runs to the first line that is not a table row.
  const marker = `<!-- config:${group} -->`;
  const pattern = new RegExp(`${marker}\\n(?:\\|.*\\n)*`);
  if (!pattern.test(page)) throw new Error(`${PAGE} has no ${marker} marker`);
  page = page.replace(pattern, `${marker}\n${variablesTable(group)}\n`);
}
fs.writeFileSync(PAGE, page);
