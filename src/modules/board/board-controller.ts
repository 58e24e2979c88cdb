// REST + MCP procedures of the board: the whole board at once, and its live stream (REST only, hidden from MCP).
import { get, operation, prefix, procedure } from 'vovk';
import { jsonLinesResponse } from '@/lib/json-lines';
import { type BoardEvent, BoardSchema } from './board-schemas';
import BoardService from './board-service';

@prefix('board')
export default class BoardController {
  @operation({
    summary: 'Get board',
    description: 'Returns the whole task board: the columns (todo, in_progress, done) with their tasks in order, and the users.',
  })
  @get()
  static getBoard = procedure({ output: BoardSchema }).handle(async () => BoardService.getBoard());

  @operation({
    summary: 'Stream board',
    description:
      'JSON Lines, one event a line: {"type":"board","board":…} now and after every change (from any door or instance), and {"type":"heartbeat"} every 15 s.',
  })
  @operation.tool({ hidden: true })
  @get('stream')
  static streamBoard = procedure().handle(async (req) =>
    jsonLinesResponse<BoardEvent>(req, (send, closed) => BoardService.watch(send, closed)),
  );
}
