// `vovk-mcp-gateway tools lock|check`: writes the tool contract of an app's catalogue to its lock file, or checks the
// catalogue against it (exit 1 on a change that breaks a caller).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ContractChange, contractChanges } from '../shared/contract-changes.js';
import { ContractFileError, DEFAULT_LOCK_FILE, parseContract, serializeContract, type ToolContract } from '../shared/tool-contract.js';
import type { RouteContractMessage } from './route-contract.js';

/** The `tools` command's lines of the package's usage text. */
export const TOOLS_USAGE = `  npx vovk-mcp-gateway tools lock [OPTIONS]      writes the tool contract of the app's catalogue to ${DEFAULT_LOCK_FILE}
  npx vovk-mcp-gateway tools check [OPTIONS]     exit 1 when the catalogue breaks a caller of the locked contract
    --route FILE     the MCP route to load (default src/app/api/mcp/route.ts, else app/api/mcp/route.ts)
    --lock FILE      the lock file (default ${DEFAULT_LOCK_FILE})
    --import MODULE  a module to load before the route (repeatable): what the app's build defines, for instance`;

/** The MCP route files looked for, in this order, when `--route` names none. */
const DEFAULT_ROUTES = ['src/app/api/mcp/route.ts', 'app/api/mcp/route.ts'];

/** Bad input (options, a missing route, a route that creates no gateway): said in one line, exit code 2. */
class ToolsInputError extends Error {}

interface ToolsOptions {
  action: 'lock' | 'check';
  /** Absolute paths. */
  route: string;
  lock: string;
  /** What to pass to `node --import`: file URLs for paths, bare specifiers as they are. */
  imports: string[];
}

/** The value of the option at `index` of `args`. */
function valueOf(args: string[], index: number): string {
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new ToolsInputError(`${args[index]} needs a value`);
  return value;
}

function optionsOf(args: string[], cwd: string): ToolsOptions {
  const [action, ...rest] = args;
  if (action !== 'lock' && action !== 'check') throw new ToolsInputError(`say \`tools lock\` or \`tools check\`, not \`tools ${action ?? ''}\``);
  let route: string | undefined;
  let lock = DEFAULT_LOCK_FILE;
  const imports: string[] = [];
  for (let index = 0; index < rest.length; index += 2) {
    const option = rest[index];
    if (!['--route', '--lock', '--import'].includes(option)) throw new ToolsInputError(`unknown option ${option}`);
    const value = valueOf(rest, index);
    if (option === '--route') route = value;
    else if (option === '--lock') lock = value;
    else imports.push(/^\.{0,2}\//.test(value) ? pathToFileURL(path.resolve(cwd, value)).href : value);
  }
  route ??= DEFAULT_ROUTES.find((file) => fs.existsSync(path.join(cwd, file)));
  if (!route) throw new ToolsInputError(`no MCP route at ${DEFAULT_ROUTES.join(' or ')}: name it with --route FILE`);
  if (!fs.existsSync(path.resolve(cwd, route))) throw new ToolsInputError(`no MCP route at ${route}`);
  return { action, route: path.resolve(cwd, route), lock: path.resolve(cwd, lock), imports };
}

/**
 * The contract of the catalogue the route serves, read in a child Node process that loads the route as Next.js would
 * on the server (TypeScript and the app's tsconfig paths by tsx, the `react-server` condition), after `imports`.
 */
function routeContract({ route, imports }: ToolsOptions, cwd: string): Promise<ToolContract> {
  const execArgv = ['--conditions=react-server', '--import', import.meta.resolve('tsx'), ...imports.flatMap((module) => ['--import', module])];
  const child = fork(new URL('./route-contract.js', import.meta.url), [pathToFileURL(route).href], { cwd, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const routeName = path.relative(cwd, route);
  return new Promise((resolve, reject) => {
    let answered = false;
    child.once('message', (message: RouteContractMessage) => {
      answered = true;
      if ('contract' in message) resolve(message.contract);
      else reject(new ToolsInputError(`the route ${routeName}: ${message.error}`));
    });
    child.once('error', (error) => reject(new ToolsInputError(`the route ${routeName} could not be loaded: ${error.message}`)));
    child.once('exit', (code) => {
      if (!answered) reject(new ToolsInputError(`the route ${routeName} could not be loaded (its process ended with code ${code})`));
    });
  });
}

/** The locked contract, or undefined when there is no lock file yet. */
function lockedContract(lock: string): ToolContract | undefined {
  if (!fs.existsSync(lock)) return undefined;
  return parseContract(fs.readFileSync(lock, 'utf8'), path.basename(lock));
}

/** A change as one line of the report: ✗ for one that breaks a caller (and why), + for one that does not. */
const lineOf = ({ tool, what, breaks }: ContractChange) => (breaks ? `  ✗ ${tool}: ${what} — ${breaks}` : `  + ${tool}: ${what}`);
const count = (n: number, noun: string, nouns = `${noun}s`) => `${n} ${n === 1 ? noun : nouns}`;

function lock(options: ToolsOptions, current: ToolContract): number {
  const file = path.basename(options.lock);
  let previous: ToolContract | undefined;
  try {
    previous = lockedContract(options.lock);
  } catch {
    // An unreadable lock is written anew: that is what `tools lock` is for.
  }
  fs.writeFileSync(options.lock, serializeContract(current));
  const changes = previous ? contractChanges(previous, current) : [];
  const aliases = current.tools.reduce((sum, tool) => sum + (tool.aliases?.length ?? 0), 0);
  console.log(`vovk-mcp-gateway tools lock: wrote ${file} (${count(current.tools.length, 'tool')}, ${count(aliases, 'alias', 'aliases')})`);
  if (changes.length) console.log([`Recorded ${count(changes.length, 'change')}:`, ...changes.map(lineOf)].join('\n'));
  return 0;
}

function check(options: ToolsOptions, current: ToolContract): number {
  const file = path.basename(options.lock);
  const locked = lockedContract(options.lock);
  if (!locked) throw new ToolsInputError(`no lock file ${file}: write it with \`npx vovk-mcp-gateway tools lock\` and commit it`);
  const changes = contractChanges(locked, current);
  const breaking = changes.filter((change) => change.breaks);
  const others = changes.filter((change) => !change.breaks);
  if (breaking.length) {
    console.error(
      [
        `vovk-mcp-gateway tools check: ${count(breaking.length, 'change')} of the catalogue break callers of ${file}:`,
        ...breaking.map(lineOf),
        ...(others.length ? [`and ${count(others.length, 'change')} that break none:`, ...others.map(lineOf)] : []),
        'Keep the change compatible (old names as @toolAliases, new arguments optional, enums and types as wide), or, when the',
        'break is meant, record it with `npx vovk-mcp-gateway tools lock` and commit the lock file.',
      ].join('\n'),
    );
    return 1;
  }
  if (!others.length) {
    console.log(`vovk-mcp-gateway tools check: the catalogue's ${count(current.tools.length, 'tool')} match ${file}`);
    return 0;
  }
  console.log(
    [
      `vovk-mcp-gateway tools check: the catalogue keeps every promise of ${file}; ${count(others.length, 'change')} not recorded in it:`,
      ...others.map(lineOf),
      'Record them with `npx vovk-mcp-gateway tools lock`.',
    ].join('\n'),
  );
  return 0;
}

/** Runs `vovk-mcp-gateway tools …args` in the app folder `cwd`: its exit code (bad input: 2, said in one line). */
export async function toolsCommand(args: string[], cwd: string): Promise<number> {
  try {
    const options = optionsOf(args, cwd);
    const current = await routeContract(options, cwd);
    return options.action === 'lock' ? lock(options, current) : check(options, current);
  } catch (error) {
    if (!(error instanceof ToolsInputError || error instanceof ContractFileError)) throw error;
    console.error(`vovk-mcp-gateway tools: ${error.message}`);
    return 2;
  }
}
