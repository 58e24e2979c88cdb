// REST + MCP procedures of the user module: GET /api/users and GET /api/users/{id}.
import { get, operation, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { UserIdParamsSchema, UserSchema } from './user-schemas';
import UserService from './user-service';

@prefix('users')
export default class UserController {
  @operation({
    summary: 'Get user',
    description: 'Returns one user of the store by numeric id. Fails with 404 when no user has that id.',
  })
  @get('{id}')
  static getUser = procedure({
    params: UserIdParamsSchema,
    output: UserSchema,
  }).handle(async (req) => UserService.getUser(req.vovk.params().id));

  @operation({
    summary: 'List users',
    description: 'Returns every user of the store as an array, oldest first.',
  })
  @get()
  static listUsers = procedure({
    output: z.array(UserSchema).meta({ description: 'All users' }),
  }).handle(async () => UserService.listUsers());
}
