import { get, operation, prefix, procedure, put } from 'vovk';
import { z } from 'zod';
import UserService from './user-service';

const UserSchema = z
  .object({
    id: z.int().meta({ description: 'The user ID' }),
    name: z.string().meta({ description: 'The user full name' }),
    email: z.email().meta({ description: 'The user email address' }),
  })
  .meta({ description: 'A user' });

@prefix('users')
export default class UserController {
  @operation({ summary: 'List users', description: 'Lists the users, optionally only those whose name contains a text.' })
  @get()
  static listUsers = procedure({
    query: z.object({ search: z.string().optional().meta({ description: 'Text the name must contain' }) }),
    output: z.object({ users: z.array(UserSchema) }),
  }).handle(async (req) => ({ users: UserService.listUsers(req.nextUrl.searchParams.get('search') ?? undefined) }));

  @operation({ summary: 'Get a user', description: 'Gets one user by ID.' })
  @get('{id}')
  static getUser = procedure({
    params: z.object({ id: z.string().regex(/^\d+$/).meta({ description: 'The user ID' }) }),
    output: UserSchema,
  }).handle(async (_req, { id }) => UserService.getUser(Number(id)));

  @operation({ summary: 'Update a user', description: 'Changes the name or the email of a user (not stored: the answer shows it).' })
  @put('{id}')
  static updateUser = procedure({
    params: z.object({ id: z.string().regex(/^\d+$/).meta({ description: 'The user ID' }) }),
    body: z
      .object({ name: z.string().optional(), email: z.email().optional() })
      .meta({ description: 'The fields to change' }),
    output: UserSchema,
  }).handle(async (req, { id }) => UserService.updateUser(Number(id), await req.json()));
}
