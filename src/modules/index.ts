// THE registry of modules: the REST segment and the MCP route both read it; a key here is the tool-name prefix.
import AnnotatedController from './annotated/annotated-controller';
import MediaController from './media/media-controller';
import TextController from './text/text-controller';
import UserController from './user/user-controller';

export const controllers = {
  UserController,
  MediaController,
  TextController,
  AnnotatedController,
};

export type Controllers = typeof controllers;
