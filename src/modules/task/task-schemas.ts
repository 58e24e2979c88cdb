// zod schemas of the task module; their descriptions are what REST docs and AI models read.
import { z } from 'zod';
import { pageFields } from '../page-schema';
import { TASK_STATUSES } from '@/lib/store';

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
    ...pageFields('tasks'),
  })
  .meta({ description: 'Filters and paging, all optional' });

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

/** NewTaskSchema as JSON Schema (what a client sends), for the rows of an import. */
const { $schema: _dialect, ...newTaskJsonSchema } = z.toJSONSchema(NewTaskSchema, { io: 'input' });

/**
 * One row of a JSON import. It passes the body's validation as it is and is checked by the import itself, with
 * NewTaskSchema's rules, so that a bad row is reported by its number (422) with every other bad row; its JSON Schema
 * (which zod takes from the metadata) tells clients what a row is.
 */
const ImportRowSchema = z.unknown().meta({ ...newTaskJsonSchema, description: 'A task to add, as createTask takes it' });

/** The import sources, exactly one of which a request gives. */
const IMPORT_SOURCES = ['rows', 'csv', 'url'] as const;

export const TaskImportSchema = z
  .strictObject({
    rows: z.array(ImportRowSchema).optional().meta({ description: 'The tasks as JSON objects, in order' }),
    csv: z.string().optional().meta({
      description:
        'The tasks as CSV text (RFC 4180): a header row naming the columns, in any order — title, and any of description, status, assigneeId — then one row per task; an empty cell leaves its field out',
    }),
    url: z.string().optional().meta({
      description:
        'An http(s) URL of such a CSV, fetched by the server; its origin must be listed in the server setting IMPORT_ALLOWED_ORIGINS',
    }),
  })
  .superRefine((body, context) => {
    const given = IMPORT_SOURCES.filter((source) => body[source] !== undefined);
    if (given.length === 1) return;
    context.addIssue({
      code: 'custom',
      message: `Give exactly one of rows, csv or url: ${given.length ? `got ${given.join(' and ')}` : 'got none'}`,
    });
  })
  .meta({ description: 'Where the tasks come from: exactly one of rows, csv or url' });

export type TaskImport = z.infer<typeof TaskImportSchema>;

export const TaskImportResultSchema = z
  .object({
    imported: z.number().int().min(0).meta({ description: 'How many tasks were added' }),
    ids: z.array(z.number().int().positive()).meta({ description: 'The ids of the new tasks, in the order of the rows' }),
  })
  .meta({ description: 'What the import added' });

export type TaskImportResult = z.infer<typeof TaskImportResultSchema>;

export const TaskIdCompletionQuerySchema = z
  .object({
    value: z.string().max(200).default('').meta({ description: 'What was typed so far: the start of a task id, or words of its title' }),
  })
  .meta({ description: 'Query parameters' });

export const CompletionSchema = z
  .object({
    values: z.array(z.string()).max(100).meta({ description: 'The matching values, at most 100, best first' }),
    total: z.number().int().min(0).meta({ description: 'How many values match in all' }),
    hasMore: z.boolean().meta({ description: 'Whether more match than are listed' }),
  })
  .meta({ description: 'Suggested values for an argument (MCP completion/complete)' });

export type Completion = z.infer<typeof CompletionSchema>;
