// The live task board page: a client component fed by the board stream.
import { BoardView } from './board-view';

export const metadata = { title: 'Board · Vovk MCP gateway' };

export default function BoardPage() {
  return <BoardView />;
}
