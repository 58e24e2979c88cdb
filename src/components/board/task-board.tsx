// The task board, shared by /board and the board MCP App: columns of cards; add, move (drag and drop or arrows),
// reassign, delete. Each shell says how those actions reach the server (REST, or tools through an MCP Apps host).
import './board.css';
import { type DragEvent, type FormEvent, type ReactNode, useState } from 'react';
import type { Board } from '@/modules/board/board-schemas';
import type { Task, TaskStatusSchema } from '@/modules/task/task-schemas';
import type { User } from '@/modules/user/user-schemas';

type TaskStatus = (typeof TaskStatusSchema)['options'][number];
type Column = Board['columns'][number];

/** A new task as the server reads it, defaults included (To do, no description). */
type NewTask = Pick<Task, 'title' | 'description' | 'status' | 'assigneeId'>;

/** How the board's changes reach the server; each rejects with an Error whose message the board shows. */
export interface BoardActions {
  create(task: NewTask): Promise<unknown>;
  move(id: number, status: TaskStatus, position?: number): Promise<unknown>;
  assign(id: number, assigneeId: number | null): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

interface TaskBoardProps {
  /** The board as last received; null while it is loading. */
  board: Board | null;
  actions: BoardActions;
  /** Called after an action failed (its message is shown), e.g. to ask for a sign-in after a 401. */
  onActionFailed?(failure: Error): void;
  /** The shell's heading row (title, connection, links). */
  header: ReactNode;
}

/**
 * The board's title bar: "Board", the live-connection badge (`state` styles it, `label` says it) and whatever else a
 * page adds (links, the sign-in badge).
 */
export function BoardHeader({ state, label, children }: { state: string; label: string; children?: ReactNode }) {
  return (
    <header className="board-header">
      <h1>Board</h1>
      <span className={`board-connection board-connection-${state}`} role="status" aria-label="Connection">
        {label}
      </span>
      {children}
    </header>
  );
}

export function TaskBoard({ board, actions, onActionFailed, header }: TaskBoardProps) {
  const [error, setError] = useState<string | null>(null);
  /** Runs an action; shows the server's message when it fails. The board itself updates from the server. */
  const act = (call: Promise<unknown>) =>
    call.then(
      () => setError(null),
      (failure: Error) => {
        setError(failure.message);
        onActionFailed?.(failure);
      },
    );

  return (
    <main className="board">
      {header}
      {board && <NewTaskForm users={board.users} onCreate={(task) => act(actions.create(task))} />}
      {error && (
        <p className="board-error" role="alert">
          {error}
        </p>
      )}
      {board ? (
        <div className="board-columns">
          {board.columns.map((column, index) => (
            <ColumnView
              key={column.status}
              column={column}
              users={board.users}
              left={board.columns[index - 1]?.status}
              right={board.columns[index + 1]?.status}
              onMove={(id, status, position) => act(actions.move(id, status, position))}
              onAssign={(id, assigneeId) => act(actions.assign(id, assigneeId))}
              onDelete={(id) => act(actions.remove(id))}
            />
          ))}
        </div>
      ) : (
        <p className="board-loading">Loading the board…</p>
      )}
    </main>
  );
}

function NewTaskForm({ users, onCreate }: { users: User[]; onCreate: (task: NewTask) => Promise<void> }) {
  const [title, setTitle] = useState('');
  const [assignee, setAssignee] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return;
    const assigneeId = assignee ? Number(assignee) : null;
    await onCreate({ title: title.trim(), description: '', status: 'todo', assigneeId });
    setTitle('');
  };
  return (
    <form className="board-new-task" onSubmit={submit}>
      <input aria-label="New task title" placeholder="New task…" value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
      <AssigneeSelect label="Assignee of the new task" users={users} value={assignee} onChange={setAssignee} />
      <button type="submit">Add task</button>
    </form>
  );
}

function AssigneeSelect({ label, users, value, onChange }: { label: string; users: User[]; value: string; onChange: (value: string) => void }) {
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Unassigned</option>
      {users.map((user) => (
        <option key={user.id} value={user.id}>
          {user.name}
        </option>
      ))}
    </select>
  );
}

interface ColumnProps {
  column: Column;
  users: User[];
  left?: TaskStatus;
  right?: TaskStatus;
  onMove(id: number, status: TaskStatus, position?: number): void;
  onAssign(id: number, assigneeId: number | null): void;
  onDelete(id: number): void;
}

function ColumnView({ column, users, left, right, onMove, onAssign, onDelete }: ColumnProps) {
  const [dropTarget, setDropTarget] = useState(false);
  /** Dropped on a card: take its place (counted without the dragged card); on the column itself: the bottom. */
  const drop = (event: DragEvent, before?: Task) => {
    event.preventDefault();
    event.stopPropagation();
    setDropTarget(false);
    const id = Number(event.dataTransfer.getData('text/plain'));
    if (!id) return;
    const others = column.tasks.filter((task) => task.id !== id);
    onMove(id, column.status, before ? others.findIndex((task) => task.id === before.id) : undefined);
  };
  return (
    <section
      className={`board-column${dropTarget ? ' board-column-drop' : ''}`}
      aria-label={column.title}
      data-status={column.status}
      onDragOver={(event) => {
        event.preventDefault();
        setDropTarget(true);
      }}
      onDragLeave={() => setDropTarget(false)}
      onDrop={(event) => drop(event)}
    >
      <h2>
        {column.title} <span className="board-count">{column.tasks.length}</span>
      </h2>
      <ol className="board-cards">
        {column.tasks.map((task) => (
          <li
            key={task.id}
            className="board-card"
            aria-label={task.title}
            data-task-id={task.id}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.setData('text/plain', String(task.id));
              event.dataTransfer.effectAllowed = 'move';
            }}
            onDrop={(event) => drop(event, task)}
          >
            <p className="board-card-title">{task.title}</p>
            {task.description && <p className="board-card-description">{task.description}</p>}
            {task.createdBy && (
              <p className="board-card-creator" data-testid="card-creator">
                created by {task.createdBy}
              </p>
            )}
            <div className="board-card-actions">
              <AssigneeSelect
                label="Assignee"
                users={users}
                value={task.assigneeId === null ? '' : String(task.assigneeId)}
                onChange={(value) => onAssign(task.id, value ? Number(value) : null)}
              />
              {left && (
                <button type="button" aria-label="Move left" onClick={() => onMove(task.id, left)}>
                  ◀
                </button>
              )}
              {right && (
                <button type="button" aria-label="Move right" onClick={() => onMove(task.id, right)}>
                  ▶
                </button>
              )}
              <button type="button" aria-label="Delete task" onClick={() => onDelete(task.id)}>
                ✕
              </button>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
