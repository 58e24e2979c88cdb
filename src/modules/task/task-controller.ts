// REST + MCP procedures of the task module: the board's cards under /api/tasks.
import { del, get, operation, patch, post, prefix, procedure, put } from 'vovk';
import { confirm, currentCaller, longRunning, resource } from 'vovk-mcp-gateway';
import { DATA_TTL_MS } from '@/lib/resource-freshness';
import { z } from 'zod';
import {
  CompletionSchema,
  NewTaskSchema,
  TaskChangesSchema,
  TaskFilterSchema,
  TaskIdCompletionQuerySchema,
  TaskIdParamsSchema,
  TaskImportResultSchema,
  TaskImportSchema,
  TaskMoveSchema,
  TaskSchema,
  type TaskImport,
} from './task-schemas';
import TaskService from './task-service';

@prefix('tasks')
export default class TaskController {
  @operation({
    summary: 'List tasks',
    description:
      'Returns the tasks of the board as an array, column by column (todo, in_progress, done), top first; offset and limit page it.',
  })
  @get()
  @resource({ changedBy: { tasks: '*' }, ttlMs: DATA_TTL_MS })
  static listTasks = procedure({
    query: TaskFilterSchema,
    output: z.array(TaskSchema).meta({ description: 'The tasks, in board order' }),
  }).handle(async (req) => TaskService.listTasks(req.vovk.query()));

  @operation({
    summary: 'Get task',
    description: 'Returns one task by numeric id. Fails with 404 when no task has that id.',
  })
  @get('{id}')
  @resource({ changedBy: { tasks: 'id' }, ttlMs: DATA_TTL_MS, complete: { id: 'TaskController_completeTaskId' } })
  static getTask = procedure({
    params: TaskIdParamsSchema,
    output: TaskSchema,
  }).handle(async (req) => TaskService.getTask(req.vovk.params().id));

  @operation({
    summary: 'Complete a task id',
    description:
      'Suggests task ids for what was typed: the ids that start with it and those of tasks whose title contains it (any case), lowest first, at most 100, with how many match. Completes the id of the task resource (MCP completion/complete).',
  })
  @get('id-completions')
  static completeTaskId = procedure({
    query: TaskIdCompletionQuerySchema,
    output: CompletionSchema,
  }).handle(async (req) => TaskService.completeTaskId(req.vovk.query().value));

  @operation({
    summary: 'Create task',
    description:
      'Adds a task at the bottom of a column (default todo), optionally assigned to a user. Fails with 422 when the assignee does not exist.',
    'x-tool-annotations': { destructiveHint: false },
  })
  @post()
  static createTask = procedure({
    body: NewTaskSchema,
    output: TaskSchema,
  }).handle(async (req) => TaskService.createTask({ ...(await req.vovk.body()), createdBy: currentCaller()?.subject ?? null }));

  @operation({
    summary: 'Import tasks',
    description:
      'Adds many tasks at once, from exactly one of: rows (JSON objects as createTask takes them), csv (CSV text whose header row names its columns: title, and any of description, status, assigneeId) or url (an http(s) URL of such a CSV on an origin the server allows in IMPORT_ALLOWED_ORIGINS). ' +
      'Each task goes to the bottom of its column (default todo), in row order; all rows are added in one transaction, or none. ' +
      'Every row is checked first: bad rows fail the import with 422 and errors [{ row, reason }] (row: 1-based, the CSV header not counted). ' +
      'More than IMPORT_MAX_ROWS rows or IMPORT_MAX_BYTES bytes of CSV → 413; a URL that is not allowed → 400. Returns { imported, ids } (ids in row order). May run long: reports progress in rows.',
    'x-tool-annotations': { destructiveHint: false },
  })
  @post('import')
  // Rows or CSV given inline answer within the call; a URL import runs as a task for clients that declare the extension.
  // A URL the server does not allow is refused at once, never accepted as a job or a task.
  @longRunning({
    answersAtOnce: (args) => (args.body as TaskImport | undefined)?.url === undefined,
    checkFirst: (args) => TaskService.checkImportSource(args.body as TaskImport | undefined),
  })
  static importTasks = procedure({
    body: TaskImportSchema,
    output: TaskImportResultSchema,
  }).handle(async (req) => TaskService.importTasks(await req.vovk.body(), currentCaller()?.subject ?? null));

  @operation({
    summary: 'Update task',
    description:
      'Changes the title, description or assignee of a task (assigneeId null unassigns); fields left out keep their value. 404 for an unknown task, 422 for an unknown assignee.',
  })
  @patch('{id}')
  static updateTask = procedure({
    params: TaskIdParamsSchema,
    body: TaskChangesSchema,
    output: TaskSchema,
  }).handle(async (req) => TaskService.updateTask(req.vovk.params().id, await req.vovk.body()));

  @operation({
    summary: 'Move task',
    description:
      'Moves a task to a column and a 0-based place in it (default: the bottom); the other cards shift. Moving it to where it is changes nothing. 404 for an unknown task.',
    'x-tool-annotations': { destructiveHint: false },
  })
  @put('{id}/move')
  static moveTask = procedure({
    params: TaskIdParamsSchema,
    body: TaskMoveSchema,
    output: TaskSchema,
  }).handle(async (req) => TaskService.moveTask(req.vovk.params().id, await req.vovk.body()));

  @operation({
    summary: 'Delete task',
    description: 'Deletes a task and returns it as it was. Fails with 404 when no task has that id.',
  })
  @del('{id}')
  @confirm(async (req) => {
    const task = await TaskService.getTask(Number(req.vovk.params().id));
    return `Delete the task “${task.title}” (id ${task.id})? It cannot be undone.`;
  })
  static deleteTask = procedure({
    params: TaskIdParamsSchema,
    output: TaskSchema,
  }).handle(async (req) => TaskService.deleteTask(req.vovk.params().id));
}
