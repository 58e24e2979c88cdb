// THE registry of modules: the REST segment and the MCP route both read it; a key here is the tool-name prefix.
import type { GatewayModules, Segments } from 'vovk-mcp-gateway';
import AnnotatedController from './annotated/annotated-controller';
import BoardController from './board/board-controller';
import { sumNumbers } from './math/sum-numbers';
import JobController from './job/job-controller';
import MediaController from './media/media-controller';
import TaskController from './task/task-controller';
import TextController from './text/text-controller';
import UserController from './user/user-controller';

const productControllers = {
  UserController,
  TaskController,
  BoardController,
  MediaController,
  TextController,
  AnnotatedController,
  JobController,
};

/** The test-only modules of `src/testing`: compiled into the test build only (`npm run build:test`). */
const testing = __GATEWAY_TEST_BUILD__ ? await import('@/testing') : undefined;

/** Every controller of the root REST segment (`/api/…`), also served over MCP: the product's, plus the test build's own. */
export const controllers: typeof productControllers = { ...productControllers, ...testing?.testControllers() };

/** The other REST segments (`/api/<name>/…`, each a route file of its own), by name: their controllers, also MCP tools. */
export const segments: Segments = testing?.testSegments() ?? {};

/**
 * What the MCP door serves: every controller's procedures, the standalone tools, test-only extras. The UIs that
 * procedures name with `@mcpApp(name)` are added by the MCP route (from `src/mcp-apps`): modules name a UI, never import it.
 */
export const gatewayModules: GatewayModules = {
  controllers,
  segments,
  tools: [sumNumbers, ...(testing?.testTools() ?? [])],
  setupServer: testing?.setupTestServer(),
};

export type Controllers = typeof productControllers;
