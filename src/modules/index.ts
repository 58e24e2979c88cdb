// THE registry of modules: the REST segment and the MCP route both read it; a key here is the tool-name prefix.
import AnnotatedController from './annotated/annotated-controller';
import BoardController from './board/board-controller';
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

/** Every module served; the test-only FixtureController joins only when GATEWAY_TEST_FIXTURES=1. */
export const controllers = process.env.GATEWAY_TEST_FIXTURES === '1' ? { ...modules, FixtureController } : modules;

export type Controllers = typeof modules;
