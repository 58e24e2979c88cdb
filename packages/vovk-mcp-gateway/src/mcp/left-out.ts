// The registry's handlers that are not MCP tools, and why: derived once per process for the explorer to list.
import 'server-only';
import { ToModelOutput } from '../tools/index.js';
import type { GatewayModules } from './gateway-server.js';
import { deriveProcedureTools, type LeftOutProcedure } from './gateway-tools.js';

const derived = new WeakMap<GatewayModules, LeftOutProcedure[]>();

/** The handlers of `modules` not served as tools, with why (the MCP door's own derivation), as plain data. */
export function leftOutProcedures(modules: GatewayModules): LeftOutProcedure[] {
  let leftOut = derived.get(modules);
  if (!leftOut) {
    // Only what is left out is wanted (no standalone tools): no tool is called, so the origin is never asked for.
    leftOut = deriveProcedureTools(modules.controllers, ToModelOutput.MCP, () => '', { segments: modules.segments }).leftOut;
    derived.set(modules, leftOut);
  }
  return leftOut;
}
