// zod schemas of the task module; their descriptions are what REST docs and AI models read.
import { z } from 'zod';
import { TASK_STATUSES } from '@/lib/db/store';

export const TaskStatusSchema = z
  .enum(TASK_STATUSES)
  .meta({ description: 'Column of the board: todo ("To do"), in_progress ("In progress") or done ("Done")' });

const TitleSchema = z.string().trim().min(1).max(200).meta({ description: 'Short title shown on the card' });
const DescriptionSchema = z.string().max(2000).meta({ description: 'Longer text, may be empty' });
const AssigneeIdSchema = z
  .number()
  .int()
  .positive()
  .nullable()
  .meta({ description: 'Id of the user the task is assigned to, or null for nobody' });

export const TaskSchema = z
  .object({
    id: z.number().int().positive().meta({ description: 'Unique numeric id of the task' }),
    title: TitleSchema,
    description: DescriptionSchema,
    status: TaskStatusSchema,
    position: z.number().int().min(0).meta({ description: '0-based place of the task in its column, top first' }),
    assigneeId: AssigneeIdSchema,
    createdBy: z
      .string()
      .nullable()
      .meta({ description: 'Who created the task: the OAuth subject (sub) of the caller, or null when the gateway runs without OAuth' }),
    createdAt: z.string().meta({ description: 'When the task was created, ISO 8601 in UTC' }),
    updatedAt: z.string().meta({ description: 'When the task last changed, ISO 8601 in UTC' }),
  })
  .meta({ description: 'A task card of the board' });

export type Task = z.infer<typeof TaskSchema>;

export const TaskIdParamsSchema = z
  .object({
    id: z.coerce.number().int().positive().meta({ description: 'Numeric id of the task, e.g. 1' }),
  })
  .meta({ description: 'Path parameters' });

export const TaskFilterSchema = z
  .object({
    status: TaskStatusSchema.optional().meta({ description: 'Only the tasks of this column' }),
    assigneeId: z.coerce.number().int().positive().optional().meta({ description: 'Only the tasks of this user' }),
  })
  .meta({ description: 'Filters, all optional' });

export const NewTaskSchema = z
  .strictObject({
    title: TitleSchema,
    description: DescriptionSchema.default(''),
    status: TaskStatusSchema.default('todo').meta({ description: 'Column to add the task to, at its end (default todo)' }),
    assigneeId: AssigneeIdSchema.default(null),
  })
  .meta({ description: 'The new task' });

export const TaskChangesSchema = z
  .strictObject({
    title: TitleSchema.optional(),
    description: DescriptionSchema.optional(),
    assigneeId: AssigneeIdSchema.optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: 'Give at least one of title, description, assigneeId',
  })
  .meta({ description: 'The fields to change; the others keep their value' });

export const TaskMoveSchema = z
  .strictObject({
    status: TaskStatusSchema.meta({ description: 'Column to move the task to' }),
    position: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: '0-based place in that column (default: its end; larger values mean the end)' }),
  })
  .meta({ description: 'Where the task goes' });
