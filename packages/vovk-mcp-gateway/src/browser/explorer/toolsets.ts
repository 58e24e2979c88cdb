// The listed tools by toolset, as the explorer shows them: under their module's toolset; every toolset and its size.
import 'client-only';
import type { Tool } from '@modelcontextprotocol/client';
import { toolsetsOf } from '../../shared/toolset-meta.js';

/** Where a tool that names no toolset is shown (a server that does not advertise them). */
const NO_TOOLSET = 'other';

export interface ToolsetGroup {
  name: string;
  tools: Tool[];
}

export interface ToolsetSize {
  name: string;
  tools: number;
}

/** The toolsets of a tool besides its module's (those it declares, e.g. with `@toolset('billing')`). */
export const extraToolsetsOf = (tool: Tool) => toolsetsOf(tool._meta).slice(1);

/** The tools of each toolset `toolsetsOfTool` puts them in, toolsets in the order their first tool comes. */
function byToolset(tools: readonly Tool[], toolsetsOfTool: (tool: Tool) => string[]): ToolsetGroup[] {
  const groups = new Map<string, Tool[]>();
  for (const tool of tools) {
    for (const name of toolsetsOfTool(tool)) {
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name)!.push(tool);
    }
  }
  return [...groups].map(([name, members]) => ({ name, tools: members }));
}

/** Each tool once, under its first toolset (its module's, or `standalone`), in the order the tools are listed. */
export const groupByToolset = (tools: readonly Tool[]): ToolsetGroup[] =>
  byToolset(tools, (tool) => [toolsetsOf(tool._meta)[0] ?? NO_TOOLSET]);

/** Every toolset the tools are in (modules and declared ones) and how many tools each has: what a client may select. */
export const toolsetSizes = (tools: readonly Tool[]): ToolsetSize[] =>
  byToolset(tools, (tool) => toolsetsOf(tool._meta)).map((group) => ({ name: group.name, tools: group.tools.length }));
