import { initSegment } from 'vovk';
import PostController from '../../../modules/post/post-controller';
import UserController from '../../../modules/user/user-controller';

const controllers = {
  UserRPC: UserController,
  PostRPC: PostController,
};

export type Controllers = typeof controllers;

export const { GET, POST, PUT, DELETE } = initSegment({ controllers });
