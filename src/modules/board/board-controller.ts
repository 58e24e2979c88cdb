// REST + MCP procedures of the board: the whole board at once (with its MCP App), and its live stream (REST only).
import { get, operation, prefix, procedure } from 'vovk';
import { mcpApp } from '@/lib/mcp/mcp-apps';
import { BoardEventSchema, BoardSchema } from './board-schemas';
import BoardService from './board-service';
import { resource } from '@/lib/mcp/resources/resource-decorator';

/** Proxies are asked not to buffer or transform the stream. */
const STREAM_HEADERS = { 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

@prefix('board')
export default class BoardController {
  @operation({
    summary: 'Get board',
    description: 'Returns the whole task board: the columns (todo, in_progress, done) with their tasks in order, and the users.',
  })
  @get()
  @mcpApp('board')
  @resource({ changedBy: { tasks: '*', users: '*' } })
  static getBoard = procedure({ output: BoardSchema }).handle(async () => BoardService.getBoard());

  @operation({
    summary: 'Stream board',
    description:
      'JSON Lines (application/jsonl when the request accepts it, else text/plain), one event a line: {"type":"board","board":…} now and after changes (from any door or instance; several changes within 250 ms make one snapshot, so at most about four a second, the last one always showing the final state), and {"type":"heartbeat"} every 15 s.',
  })
  @operation.tool({ hidden: true })
  @get('stream', { headers: STREAM_HEADERS })
  static streamBoard = procedure({ iteration: BoardEventSchema }).handle(async function* (req) {
    yield* BoardService.events(req.signal);
  });
}
