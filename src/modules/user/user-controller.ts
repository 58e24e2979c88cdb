// REST + MCP procedures of the user module: list, get, create, update and delete users under /api/users.
import { del, get, operation, patch, post, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { ADMIN_SCOPE, confirm, mcpApp, resource, scopes, toolAliases } from 'vovk-mcp-gateway';
import { DATA_TTL_MS } from '@/lib/resource-freshness';
import { DeletedUserSchema, NewUserSchema, UserChangesSchema, UserIdParamsSchema, UserPageSchema, UserSchema } from './user-schemas';
import UserService from './user-service';

@prefix('users')
export default class UserController {
  @operation({
    summary: 'Get user',
    description: 'Returns one user of the store by numeric id. Fails with 404 when no user has that id.',
  })
  @get('{id}')
  @mcpApp('user')
  @resource({ changedBy: { users: 'id' }, ttlMs: DATA_TTL_MS })
  static getUser = procedure({
    params: UserIdParamsSchema,
    output: UserSchema,
  }).handle(async (req) => UserService.getUser(req.vovk.params().id));

  @operation({
    summary: 'List users',
    description: 'Returns every user of the store as an array, oldest first.',
  })
  @get()
  @resource({ changedBy: { users: '*' }, ttlMs: DATA_TTL_MS })
  static listUsers = procedure({
    query: UserPageSchema,
    output: z.array(UserSchema).meta({ description: 'The users, oldest first' }),
  }).handle(async (req) => UserService.listUsers(req.vovk.query()));

  @operation({
    summary: 'Create user',
    description: 'Adds a user who can then be assigned tasks. Fails with 409 when another user has the email.',
    'x-tool-annotations': { destructiveHint: false },
  })
  // Its tool was once UserController_addUser: agents and programs that still call that name keep working, told to move on.
  @toolAliases('UserController_addUser')
  @post()
  static createUser = procedure({
    body: NewUserSchema,
    output: UserSchema,
  }).handle(async (req) => UserService.createUser(await req.vovk.body()));

  @operation({
    summary: 'Update user',
    description:
      "Changes a user's name, email or role; fields left out keep their value. 404 for an unknown user, 409 when another user has the email.",
  })
  @patch('{id}')
  static updateUser = procedure({
    params: UserIdParamsSchema,
    body: UserChangesSchema,
    output: UserSchema,
  }).handle(async (req) => UserService.updateUser(req.vovk.params().id, await req.vovk.body()));

  @operation({
    summary: 'Delete user',
    description:
      'Deletes a user. Their tasks stay on the board, unassigned; the result lists them. Fails with 404 when no user has that id.',
  })
  @del('{id}')
  @scopes(ADMIN_SCOPE)
  @confirm(async (req) => {
    const user = await UserService.getUser(Number(req.vovk.params().id));
    return `Delete the user ${user.name} (id ${user.id})? Their tasks stay on the board, unassigned.`;
  })
  static deleteUser = procedure({
    params: UserIdParamsSchema,
    output: DeletedUserSchema,
  }).handle(async (req) => UserService.deleteUser(req.vovk.params().id));
}
