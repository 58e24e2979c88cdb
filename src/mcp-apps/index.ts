// The MCP App UIs the gateway serves: a procedure names one with `@mcpApp(name)`; the documents are built from
// src/mcp-apps/<name>/main.tsx by `npm run generate:apps` (part of every build).
import type { McpAppUis } from 'vovk-mcp-gateway';
import { appDocuments } from './generated/html';

export const mcpApps = {
  board: {
    title: 'Task board',
    description: 'The live task board: add, drag, reassign and delete cards; changes from anywhere appear within 2 s.',
    html: appDocuments.board,
  },
  user: {
    title: 'User card',
    description: 'One user: name, role, email, and the tasks assigned to them.',
    html: appDocuments.user,
  },
} satisfies McpAppUis;
