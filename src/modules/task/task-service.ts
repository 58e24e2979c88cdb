// Tasks of the board: list, read, create, edit, move between and within columns, delete; knows nothing about requests.
import { commitPoint } from 'vovk-mcp-gateway';
import { appSettings } from '@/lib/settings';
import { type NewTask, store, type TaskChanges, type TaskFilter, type TaskMove } from '@/lib/store';
import { found, refusalsAsHttp } from '@/lib/store-errors';
import { readImport } from './task-import';
import { allowedUrl } from './task-import-download';
import type { Completion, Task, TaskImport, TaskImportResult } from './task-schemas';

/** The most values one completion answers (MCP's limit). */
const MAX_COMPLETIONS = 100;

export default class TaskService {
  /** Tasks column by column, in board order, optionally filtered. */
  static listTasks(filter: TaskFilter): Promise<Task[]> {
    return store().listTasks(filter);
  }

  /** The task with this id; 404 when there is none. */
  static async getTask(id: number): Promise<Task> {
    return found(await store().getTask(id), `Task ${id}`);
  }

  /** The ids of the tasks that start with `typed` or whose title contains it, as completions of a task id (at most 100). */
  static async completeTaskId(typed: string): Promise<Completion> {
    const { ids, total } = await store().taskIdsMatching(typed.trim(), MAX_COMPLETIONS);
    return { values: ids.map(String), total, hasMore: total > ids.length };
  }

  /** Adds a task at the end of its column; 422 when the assignee does not exist. */
  static createTask(task: NewTask): Promise<Task> {
    return refusalsAsHttp(store().createTask(task));
  }

  /**
   * Adds the tasks of an import (JSON rows, CSV text or a CSV URL) at the bottom of their columns, in row order, all in
   * one transaction whose commit point is `commitPoint`: every task or, on any error or cancel, none. The errors are
   * `readImport`'s (400, 413, 422 with the bad rows, 502, 504), and 422 when an assignee is deleted meanwhile.
   */
  static async importTasks(source: TaskImport, createdBy: string | null): Promise<TaskImportResult> {
    const users = new Set((await store().listUsers()).map((user) => user.id));
    const tasks = await readImport(source, { ...appSettings().taskImport, isUser: (id) => users.has(id) });
    const imported = await refusalsAsHttp(
      store().importTasks(
        tasks.map((task) => ({ ...task, createdBy })),
        { beforeCommit: commitPoint },
      ),
    );
    return { imported: imported.length, ids: imported.map((task) => task.id) };
  }

  /** Refuses an import from a URL the server does not allow (400 naming IMPORT_ALLOWED_ORIGINS) before it is started. */
  static checkImportSource(source: TaskImport | undefined): void {
    if (source?.url !== undefined) allowedUrl(source.url, appSettings().taskImport.allowedOrigins);
  }

  /** Changes the given fields; 404 for an unknown task, 422 for an unknown assignee. */
  static async updateTask(id: number, changes: TaskChanges): Promise<Task> {
    return found(await refusalsAsHttp(store().updateTask(id, changes)), `Task ${id}`);
  }

  /** Moves a task to a column and place; 404 for an unknown task. */
  static async moveTask(id: number, move: TaskMove): Promise<Task> {
    return found(await store().moveTask(id, move), `Task ${id}`);
  }

  /** Deletes a task and returns it as it was; 404 for an unknown task. */
  static async deleteTask(id: number): Promise<Task> {
    return found(await store().deleteTask(id), `Task ${id}`);
  }
}
