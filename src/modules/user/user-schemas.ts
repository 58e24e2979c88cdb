// zod schemas of the user module; their descriptions are what REST docs and AI models read.
import { z } from 'zod';
import { pageFields } from '../page-schema';
import { USER_ROLES } from '@/lib/store';

export const UserSchema = z
  .object({
    id: z.number().int().positive().meta({ description: 'Unique numeric id of the user' }),
    name: z.string().meta({ description: 'Full name' }),
    email: z.string().meta({ description: 'Email address, unique among users' }),
    role: z.enum(USER_ROLES).meta({ description: 'What the user may do: admin or member' }),
    createdAt: z.string().meta({ description: 'When the user was created, ISO 8601 in UTC' }),
  })
  .meta({ description: 'A user of the gateway demo store' });

export type User = z.infer<typeof UserSchema>;

export const UserPageSchema = z.object(pageFields('users')).meta({ description: 'Paging, optional' });

export const UserIdParamsSchema = z
  .object({
    id: z.coerce.number().int().positive().meta({ description: 'Numeric id of the user, e.g. 1' }),
  })
  .meta({ description: 'Path parameters' });

const NameSchema = z.string().trim().min(1).max(100).meta({ description: 'Full name, e.g. "Katherine Johnson"' });
const EmailSchema = z.email().max(200).meta({ description: 'Email address; must not belong to another user' });

export const NewUserSchema = z
  .strictObject({
    name: NameSchema,
    email: EmailSchema,
    role: z.enum(USER_ROLES).default('member').meta({ description: 'admin or member (default member)' }),
  })
  .meta({ description: 'The new user' });

export const UserChangesSchema = z
  .strictObject({
    name: NameSchema.optional(),
    email: EmailSchema.optional(),
    role: z.enum(USER_ROLES).optional().meta({ description: 'admin or member' }),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: 'Give at least one of name, email, role',
  })
  .meta({ description: 'The fields to change; the others keep their value' });

export const DeletedUserSchema = z
  .object({
    user: UserSchema.meta({ description: 'The user as it was before deletion' }),
    unassignedTaskIds: z
      .array(z.number().int().positive())
      .meta({ description: 'Ids of the tasks that were assigned to the user and are now unassigned' }),
  })
  .meta({ description: 'What deleting the user did' });
