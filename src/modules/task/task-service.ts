// Tasks of the board: list, read, create, edit, move between and within columns, delete; knows nothing about requests.
import { store, type NewTask, type TaskChanges, type TaskFilter, type TaskMove } from '@/lib/db/store';
import { found, refusalsAsHttp } from '@/lib/store-errors';
import type { Task } from './task-schemas';

export default class TaskService {
  /** Tasks column by column, in board order, optionally filtered. */
  static listTasks(filter: TaskFilter): Promise<Task[]> {
    return store().listTasks(filter);
  }

  /** The task with this id; 404 when there is none. */
  static async getTask(id: number): Promise<Task> {
    return found(await store().getTask(id), `Task ${id}`);
  }

  /** Adds a task at the end of its column; 422 when the assignee does not exist. */
  static createTask(task: NewTask): Promise<Task> {
    return refusalsAsHttp(store().createTask(task));
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
