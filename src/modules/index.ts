// THE registry of modules: the REST segment and the MCP route both read it; a key here is the tool-name prefix.
import AnnotatedController from './annotated/annotated-controller';
import BenchController from './bench/bench-controller';
import BoardController from './board/board-controller';
import ConformanceController from './conformance/conformance-controller';
import FixtureController from './fixture/fixture-controller';
import MediaController from './media/media-controller';
import TaskController from './task/task-controller';
import TextController from './text/text-controller';
import UserController from './user/user-controller';

const modules = {
  UserController,
  TaskController,
  BoardController,
  MediaController,
  TextController,
  AnnotatedController,
};

/**
 * Every module served. Test-only modules join only when asked: FixtureController with GATEWAY_TEST_FIXTURES=1 (the
 * end-to-end tests), ConformanceController with MCP_CONFORMANCE=1 (the MCP conformance suite), BenchController with
 * GATEWAY_BENCHMARK=1 (`npm run bench`).
 */
export const controllers: typeof modules = {
  ...modules,
  ...(process.env.GATEWAY_TEST_FIXTURES === '1' ? { FixtureController } : {}),
  ...(process.env.MCP_CONFORMANCE === '1' ? { ConformanceController } : {}),
  ...(process.env.GATEWAY_BENCHMARK === '1' ? { BenchController } : {}),
};

export type Controllers = typeof modules;
