// Rewrites the configuration tables of docs/configuration.md from the variables' schemas (the package's config.ts,
// then the reference app's own in src/lib/settings.ts): `npm run docs:config`.
import fs from 'node:fs';
import { VARIABLES, variablesTable } from '@gateway/config';
import { APP_VARIABLES } from '@/lib/settings';

const PAGE = 'docs/configuration.md';
const groups = ['server', 'security', 'testing'] as const;

let page = fs.readFileSync(PAGE, 'utf8');
for (const group of groups) {
  // Each table follows its marker comment and runs to the first line that is not a table row.
  const marker = `<!-- config:${group} -->`;
  const pattern = new RegExp(`${marker}\\n(?:\\|.*\\n)*`);
  if (!pattern.test(page)) throw new Error(`${PAGE} has no ${marker} marker`);
  page = page.replace(pattern, `${marker}\n${variablesTable(group, { ...VARIABLES, ...APP_VARIABLES })}\n`);
}
fs.writeFileSync(PAGE, page);
