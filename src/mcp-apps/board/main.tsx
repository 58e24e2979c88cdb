// The board as an MCP App (the UI of BoardController_getBoard): the shared task board, first painted from the tool
// result the host hands over, changed through the gateway's tools, and kept live as board-sync.ts says: repainted on
// the board resource's updates when the host forwards them, else waiting for changes, else polling.
import type { App } from '@modelcontextprotocol/ext-apps';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type BoardActions, BoardHeader, TaskBoard } from '@/components/board/task-board';
import type { Board, BoardChange } from '@/modules/board/board-schemas';
import {
  callGatewayTool,
  HostFailure,
  hostForwardsResourceUpdates,
  mount,
  OutsideHost,
  resourceOfTool,
  structuredOutput,
  useMcpHost,
  watchResource,
} from '../mcp-host';
import { type BoardLink, startBoardSync, type SyncMode, type SyncState, type Visibility } from './board-sync';

const BOARD_TOOL = 'BoardController_getBoard';

const syncLabels: Record<SyncState, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' };
const modeLabels: Record<SyncMode, string> = {
  push: 'updates pushed by the host',
  wait: 'waiting for changes',
  poll: 'asking every second',
};

/** The board tools through the host, and the board resource's updates when the host forwards them. */
function hostLink(app: App): BoardLink {
  return {
    getBoard: () => callGatewayTool<Board>(app, BOARD_TOOL),
    waitForChange: (after) => callGatewayTool<BoardChange>(app, 'BoardController_waitForChange', after ? { query: { after } } : {}),
    watchBoard: hostForwardsResourceUpdates(app)
      ? async (onUpdated) => {
          const uri = await resourceOfTool(app, BOARD_TOOL);
          if (!uri) throw new Error(`The gateway lists no resource for ${BOARD_TOOL}`);
          return watchResource(app, uri, onUpdated);
        }
      : undefined,
  };
}

const documentVisibility: Visibility = {
  visible: () => document.visibilityState === 'visible',
  onVisible(listener) {
    const onChange = () => document.visibilityState === 'visible' && listener();
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  },
};

/** The board's actions as calls of the gateway's task tools through the host; each is followed by `then`. */
function toolActions(app: App, then: () => void): BoardActions {
  const call = (name: string, args: Record<string, unknown>) => callGatewayTool(app, name, args).finally(then);
  return {
    create: (task) => call('TaskController_createTask', { body: task }),
    move: (id, status, position) => call('TaskController_moveTask', { params: { id }, body: { status, position } }),
    assign: (id, assigneeId) => call('TaskController_updateTask', { params: { id }, body: { assigneeId } }),
    remove: (id) => call('TaskController_deleteTask', { params: { id } }),
  };
}

/** Keeps `board` current while the app is connected; `refresh` follows the app's own changes. */
function useBoardSync(app: App | null, setBoard: (board: Board) => void, setSync: (state: SyncState) => void) {
  const [mode, setMode] = useState<SyncMode | null>(null);
  const [sync, setSyncHandle] = useState<ReturnType<typeof startBoardSync> | null>(null);
  useEffect(() => {
    if (!app) return;
    const started = startBoardSync(hostLink(app), documentVisibility, { show: setBoard, state: setSync, mode: setMode });
    setSyncHandle(started);
    return () => started.stop();
  }, [app, setBoard, setSync]);
  const refresh = useCallback(() => void sync?.refresh(), [sync]);
  return { mode, refresh };
}

function BoardApp() {
  const [board, setBoard] = useState<Board | null>(null);
  const [sync, setSync] = useState<SyncState>('connecting');
  const host = useMcpHost('vovk-gateway-board', (result) => {
    if (result.isError) return;
    setBoard(structuredOutput<Board>(result));
    setSync('live');
  });
  const app = host.status === 'connected' ? host.app : null;
  const { mode, refresh } = useBoardSync(app, setBoard, setSync);
  const actions = useMemo(() => (app ? toolActions(app, refresh) : offline), [app, refresh]);

  if (host.status === 'standalone') return <OutsideHost what="Task board" />;
  if (host.status === 'failed') return <HostFailure error={host.error} />;
  return (
    <TaskBoard
      board={board}
      actions={actions}
      header={
        <BoardHeader state={sync} label={syncLabels[sync]}>
          {mode && (
            <span className="board-sync-mode" data-testid="sync-mode" data-mode={mode}>
              {modeLabels[mode]}
            </span>
          )}
        </BoardHeader>
      }
    />
  );
}

/** Before the handshake there is no board to act on; should anything be tried, it is refused. */
const refuse = () => Promise.reject(new Error('Not connected to the MCP Apps host yet'));
const offline: BoardActions = { create: refuse, move: refuse, assign: refuse, remove: refuse };

mount(<BoardApp />);
