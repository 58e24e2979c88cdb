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

/** What a wait for the board to change answers: the board now, its version, and whether it differs from the one shown. */
export const BoardChangeSchema = z
  .object({
    board: BoardSchema,
    version: z.string().meta({ description: 'The version of this board (a digest of it): pass it as `after` next time' }),
    changed: z.boolean().meta({ description: 'Whether the board differs from the version given as `after`; false when the wait ran out' }),
  })
  .meta({ description: 'The board, its version, and whether it changed' });

export type BoardChange = z.infer<typeof BoardChangeSchema>;

/** The longest a wait for a change may last, and how long it lasts unless the caller asks for less. */
const MAX_BOARD_WAIT_MS = 25_000;

export const BoardWaitSchema = z
  .object({
    after: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'The version of the board the caller shows (from a previous answer); left out, the board is answered at once' }),
    timeoutMs: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_BOARD_WAIT_MS)
      .default(MAX_BOARD_WAIT_MS)
      .meta({ description: `How long to wait for a change, in ms (at most ${MAX_BOARD_WAIT_MS}, the default)` }),
  })
  .meta({ description: 'What the caller shows, and how long to wait' });
