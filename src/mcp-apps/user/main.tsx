// A user card as an MCP App (the UI of UserController_getUser): who the user is, painted from the tool result the host
// hands over, and the tasks assigned to them, fetched through the host with TaskController_listTasks.
import type { App } from '@modelcontextprotocol/ext-apps';
import './user-card.css';
import { useEffect, useState } from 'react';
import type { Task } from '@/modules/task/task-schemas';
import type { User } from '@/modules/user/user-schemas';
import { callGatewayTool, HostFailure, mount, OutsideHost, structuredOutput, useMcpHost } from '../mcp-host';

const STATUS_LABELS: Record<Task['status'], string> = { todo: 'To do', in_progress: 'In progress', done: 'Done' };

/** "AL" for Ada Lovelace. */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0])
    .slice(0, 2)
    .join('')
    .toUpperCase();
}

function AssignedTasks({ app, user }: { app: App; user: User }) {
  const [tasks, setTasks] = useState<Task[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    callGatewayTool<Task[]>(app, 'TaskController_listTasks', { query: { assigneeId: user.id } }).then(setTasks, (failure: Error) =>
      setError(failure.message),
    );
  }, [app, user.id]);
  if (error) return <p className="user-card-muted">Tasks could not be read: {error}</p>;
  if (!tasks) return <p className="user-card-muted">Reading their tasks…</p>;
  if (!tasks.length) return <p className="user-card-muted">No task is assigned to {user.name}.</p>;
  return (
    <ul className="user-card-tasks" aria-label="Assigned tasks">
      {tasks.map((task) => (
        <li key={task.id}>
          <span className={`user-card-status user-card-status-${task.status}`}>{STATUS_LABELS[task.status]}</span> {task.title}
        </li>
      ))}
    </ul>
  );
}

function UserApp() {
  const [user, setUser] = useState<User | null>(null);
  const host = useMcpHost('vovk-gateway-user-card', (result) => !result.isError && setUser(structuredOutput<User>(result)));
  if (host.status === 'standalone') return <OutsideHost what="User card" />;
  if (host.status === 'failed') return <HostFailure error={host.error} />;
  if (!user) return <p className="user-card-muted">Waiting for the user…</p>;
  const locale = host.status === 'connected' ? host.app.getHostContext()?.locale : undefined;
  const since = new Date(user.createdAt).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
  return (
    <article className="user-card" aria-label={user.name}>
      <div className="user-card-avatar" aria-hidden>
        {initials(user.name)}
      </div>
      <div className="user-card-body">
        <h1>
          {user.name} <span className="user-card-role">{user.role}</span>
        </h1>
        <p className="user-card-muted">
          {user.email} · user {user.id} · since {since}
        </p>
        {host.status === 'connected' && <AssignedTasks app={host.app} user={user} />}
      </div>
    </article>
  );
}

mount(<UserApp />);
