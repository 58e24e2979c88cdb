// zod schemas of the board module: the whole board at once, as the /board page and AI models read it.
import { z } from 'zod';
import { TaskSchema, TaskStatusSchema } from '@/modules/task/task-schemas';
import { UserSchema } from '@/modules/user/user-schemas';

export const BoardSchema = z
  .object({
    columns: z
      .array(
        z.object({
          status: TaskStatusSchema,
          title: z.string().meta({ description: 'Heading of the column' }),
          tasks: z.array(TaskSchema).meta({ description: 'The tasks of the column, top first' }),
        }),
      )
      .meta({ description: 'The columns, left to right: todo, in_progress, done' }),
    users: z.array(UserSchema).meta({ description: 'Every user, who tasks can be assigned to' }),
  })
  .meta({ description: 'The task board' });

export type Board = z.infer<typeof BoardSchema>;

/** One line of the board stream: the whole board (on connect and after changes, at most about four a second), a keep-alive, or a goodbye. */
export const BoardEventSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('board'), board: BoardSchema })
      .meta({ description: 'The whole board, on connecting and after changes (several within 250 ms make one)' }),
    z.object({ type: z.literal('heartbeat') }).meta({ description: 'Keep-alive, every 15 s' }),
    z
      .object({ type: z.literal('reconnect') })
      .meta({ description: 'The last line when the server shuts down: connect again at once (another instance answers)' }),
  ])
  .meta({ description: 'One event of the board stream' });

export type BoardEvent = z.infer<typeof BoardEventSchema>;
