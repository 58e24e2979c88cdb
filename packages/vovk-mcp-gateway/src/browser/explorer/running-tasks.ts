// The explorer's tasks still running, kept in this tab's sessionStorage so that a reload finds and follows them again.
import 'client-only';

/** A task the explorer started and has not seen end: which tool, which task, with which arguments. */
export interface RunningTask {
  toolName: string;
  taskId: string;
  arguments: Record<string, unknown>;
}

const STORAGE_KEY = 'vovk-gateway-running-tasks';

function readAll(): RunningTask[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? (stored as RunningTask[]) : [];
  } catch {
    return []; // storage unavailable (server render, privacy mode) or not ours
  }
}

function writeAll(tasks: RunningTask[]): void {
  try {
    if (tasks.length) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(tasks));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage unavailable: the task is still followed, it only would not survive a reload
  }
}

/** Notes a task that started; a tool's card runs one call at a time, so it replaces any earlier one of the tool. */
export function rememberTask(task: RunningTask): void {
  writeAll([...readAll().filter((each) => each.toolName !== task.toolName), task]);
}

/** Forgets a task once it has ended (or can no longer be found). */
export function forgetTask(taskId: string): void {
  writeAll(readAll().filter((each) => each.taskId !== taskId));
}

/** The task of `toolName` still running when the page was last left, if any. */
export function runningTaskOf(toolName: string): RunningTask | undefined {
  return readAll().find((each) => each.toolName === toolName);
}
