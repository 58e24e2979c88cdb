// The board as an MCP App (the UI of BoardController_getBoard): the shared task board, first painted from the tool
// result the host hands over, changed through the gateway's tools and kept live by calling the board tool every second.
import type { App } from '@modelcontextprotocol/ext-apps';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type BoardActions, BoardHeader, TaskBoard } from '@/components/board/task-board';
import type { Board } from '@/modules/board/board-schemas';
import { callGatewayTool, HostFailure, mount, OutsideHost, structuredOutput, useMcpHost } from '../mcp-host';

/**
 * How often the board is asked for again. The gateway is stateless (no server-to-client messages, so no resource
 * subscriptions), and an app reaches it only through the host: polling the board tool is what keeps every change,
 * from any door or instance, within two seconds.
 */
const POLL_MS = 1000;

type Sync = 'connecting' | 'live' | 'reconnecting';

const syncLabels: Record<Sync, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' };

/** The board's actions as calls of the gateway's task tools through the host; each is followed by a fresh board. */
function toolActions(app: App, refresh: () => void): BoardActions {
  const call = (name: string, args: Record<string, unknown>) => callGatewayTool(app, name, args).finally(refresh);
  return {
    create: (task) => call('TaskController_createTask', { body: task }),
    move: (id, status, position) => call('TaskController_moveTask', { params: { id }, body: { status, position } }),
    assign: (id, assigneeId) => call('TaskController_updateTask', { params: { id }, body: { assigneeId } }),
    remove: (id) => call('TaskController_deleteTask', { params: { id } }),
  };
}

function BoardApp() {
  const [board, setBoard] = useState<Board | null>(null);
  const [sync, setSync] = useState<Sync>('connecting');
  const host = useMcpHost('vovk-gateway-board', (result) => {
    if (result.isError) return;
    setBoard(structuredOutput<Board>(result));
    setSync('live');
  });
  const app = host.status === 'connected' ? host.app : null;
  // Answers can arrive out of order: only one asked for after the board on screen may replace it.
  const asked = useRef(0);
  const shown = useRef(0);

  const refresh = useCallback(async () => {
    if (!app) return;
    const number = ++asked.current;
    try {
      const fresh = await callGatewayTool<Board>(app, 'BoardController_getBoard');
      if (number < shown.current) return;
      shown.current = number;
      setBoard(fresh);
      setSync('live');
    } catch {
      setSync('reconnecting');
    }
  }, [app]);

  useEffect(() => {
    if (!app) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (document.visibilityState === 'visible') await refresh();
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [app, refresh]);

  if (host.status === 'standalone') return <OutsideHost what="Task board" />;
  if (host.status === 'failed') return <HostFailure error={host.error} />;
  return (
    <TaskBoard
      board={board}
      actions={app ? toolActions(app, refresh) : offline}
      header={
<BoardHeader state={sync} label={syncLabels[sync]} />
      }
    />
  );
}

/** Before the handshake there is no board to act on; should anything be tried, it is refused. */
const refuse = () => Promise.reject(new Error('Not connected to the MCP Apps host yet'));
const offline: BoardActions = { create: refuse, move: refuse, assign: refuse, remove: refuse };

mount(<BoardApp />);
