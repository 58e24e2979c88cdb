// The /board page's shell around the shared task board: live from the board stream, changes over REST.
'use client';
import { TaskController as TaskRPC } from '@/client';
import { type BoardActions, BoardHeader, TaskBoard } from '@/components/board/task-board';
import { SessionBadge, SignInPanel } from 'vovk-mcp-gateway/explorer';
import { isUnauthorized } from 'vovk-mcp-gateway/browser';
import { type Connection, useBoardStream } from './use-board-stream';

const connectionLabels: Record<Connection, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Token needed',
};

/** The board's actions as REST calls through the generated client. */
const restActions: BoardActions = {
  create: (task) => TaskRPC.createTask({ body: task }),
  move: (id, status, position) => TaskRPC.moveTask({ params: { id }, body: { status, position } }),
  assign: (id, assigneeId) => TaskRPC.updateTask({ params: { id }, body: { assigneeId } }),
  remove: (id) => TaskRPC.deleteTask({ params: { id } }),
};

export function BoardView() {
  const { board, connection, reconnect } = useBoardStream();
  return (
    <TaskBoard
      board={board}
      actions={restActions}
      // After a 401 the stream connects again, so that the page asks for a sign-in or a token.
      onActionFailed={(failure) => isUnauthorized(failure) && reconnect()}
      header={
        <>
          <BoardHeader state={connection} label={connectionLabels[connection]}>
            <a className="board-tools-link" href="/">
              All tools
            </a>
            <SessionBadge onSignedOut={reconnect} />
          </BoardHeader>
          {connection === 'unauthorized' && <SignInPanel onTokenSaved={reconnect} />}
        </>
      }
    />
  );
}
