// zod schemas of the user module; their descriptions are what REST docs and AI models read.
import { z } from 'zod';
import { USER_ROLES } from '@/lib/db/store';

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

export const UserIdParamsSchema = z
  .object({
    id: z.coerce.number().int().positive().meta({ description: 'Numeric id of the user, e.g. 1' }),
  })
  .meta({ description: 'Path parameters' });
