#!/usr/bin/env node
// The package's command, in the folder of a Vovk app. `npx vovk-mcp-gateway init` adds the gateway: writes the MCP route
// (the root segment's controllers as tools) and wraps the app's Next.js config with withMcpGateway, never overwriting a
// file the app already has (an existing route, or a config already wrapped, is left as it is). `npx vovk-mcp-gateway
// start [-p PORT] [-H HOST]` serves the app's build through the package's server entry, which drains on SIGTERM.
// `npx vovk-mcp-gateway tools lock|check` writes the tool contract of the app's catalogue to a lock file, or fails when
// the catalogue breaks a caller of the locked one (dist/cli/tools-command.js).
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_USAGE } from '../dist/cli/tools-command.js';

const USAGE = `Usage, in the folder of a Vovk app:
  npx vovk-mcp-gateway init                      writes app/api/mcp/route.ts, wraps next.config with withMcpGateway
  npx vovk-mcp-gateway start [-p PORT] [-H HOST]  serves the app's build (next build first); SIGTERM drains it
${TOOLS_USAGE}`;
const CONFIG_FILES = ['next.config.ts', 'next.config.mts', 'next.config.mjs', 'next.config.js'];

/** The app's `app` folder: `src/app` when the app keeps its source under src/, else `app`. */
function appFolder(dir) {
  return fs.existsSync(path.join(dir, 'src/app')) ? 'src/app' : 'app';
}

/**
 * The controllers of the app's root Vovk segment (`app/api/[[...vovk]]/route.ts`) as that file names them: the
 * `controllers` object's text and the import lines of the names it uses. Undefined when the file does not declare one.
 */
function rootSegmentControllers(dir, app) {
  const segmentFile = path.join(dir, app, 'api/[[...vovk]]/route.ts');
  if (!fs.existsSync(segmentFile)) return undefined;
  const source = fs.readFileSync(segmentFile, 'utf8');
  const declared = /const\s+controllers\s*=\s*(\{[^}]*\})/.exec(source);
  if (!declared) return undefined;
  const names = [...declared[1].matchAll(/:\s*([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*(?=[,}])/g)].map((match) => match[1] ?? match[2]);
  const imports = source
    .split('\n')
    .filter((line) => /^import\s/.test(line) && names.some((name) => new RegExp(`\\b${name}\\b`).test(line.split(' from ')[0])));
  return { object: declared[1], imports };
}

/** The route file's text: createMcpGateway over the root segment's controllers. */
function routeSource(controllers) {
  return [
    '// The MCP endpoint: every procedure of these controllers is an MCP tool (vovk-mcp-gateway).',
    "import { createMcpGateway } from 'vovk-mcp-gateway';",
    ...controllers.imports,
    '',
    `export const { GET, POST, DELETE } = createMcpGateway({ controllers: ${controllers.object} });`,
    '',
  ].join('\n');
}

/** Writes the MCP route; refuses when the app has one, or when no controllers can be found to serve. */
function writeRoute(dir) {
  const app = appFolder(dir);
  const routeFile = path.join(app, 'api/mcp/route.ts');
  if (fs.existsSync(path.join(dir, routeFile))) return { refused: `${routeFile} exists; it was not overwritten` };
  const controllers = rootSegmentControllers(dir, app);
  if (!controllers) {
    return { refused: `no root Vovk segment declaring \`const controllers = {…}\` in ${app}/api/[[...vovk]]/route.ts: write ${routeFile} as the README says` };
  }
  fs.mkdirSync(path.join(dir, app, 'api/mcp'), { recursive: true });
  fs.writeFileSync(path.join(dir, routeFile), routeSource(controllers));
  return { wrote: routeFile };
}

/** Wraps the app's Next.js config with withMcpGateway (creating next.config.ts when there is none). */
function wrapConfig(dir) {
  const existing = CONFIG_FILES.find((file) => fs.existsSync(path.join(dir, file)));
  if (!existing) {
    const created = [
      "import type { NextConfig } from 'next';",
      "import { withMcpGateway } from 'vovk-mcp-gateway/next';",
      '',
      'const nextConfig: NextConfig = {};',
      '',
      'export default withMcpGateway(nextConfig);',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'next.config.ts'), created);
    return { wrote: 'next.config.ts' };
  }
  const source = fs.readFileSync(path.join(dir, existing), 'utf8');
  if (source.includes('withMcpGateway')) return { refused: `${existing} already uses withMcpGateway; it was left as it is` };
  const exported = /^export default\s+([\s\S]+?);?\s*$/m.exec(source);
  if (!exported) return { refused: `${existing} has no \`export default …\` to wrap: wrap its config with withMcpGateway as the README says` };
  const wrapped = source.replace(exported[0], `export default withMcpGateway(${exported[1].trim()});\n`);
  fs.writeFileSync(path.join(dir, existing), `import { withMcpGateway } from 'vovk-mcp-gateway/next';\n${wrapped}`);
  return { wrote: `${existing} (wrapped with withMcpGateway)` };
}

function init(dir) {
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    console.error(`No package.json in ${dir}: run init in the folder of the Vovk app.`);
    return 1;
  }
  const steps = [writeRoute(dir), wrapConfig(dir)];
  for (const step of steps) {
    if (step.wrote) console.log(`wrote ${step.wrote}`);
    else console.error(`skipped: ${step.refused}`);
  }
  return steps.every((step) => step.wrote) ? 0 : 1;
}

const [command, ...args] = process.argv.slice(2);
if (command === 'init') process.exitCode = init(process.cwd());
else if (command === 'start') await import('../server/gateway.mjs');
else if (command === 'tools') process.exitCode = await (await import('../dist/cli/tools-command.js')).toolsCommand(args, process.cwd());
else {
  console.error(USAGE);
  process.exitCode = command === undefined || command === '--help' ? 0 : 1;
}
