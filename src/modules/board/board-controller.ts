// REST + MCP procedures of the board: the whole board at once (with its MCP App), a wait for its next change (the
// app's own tool), and its live stream (REST only).
import { get, operation, prefix, procedure } from 'vovk';
import { mcpApp, resource, workSignal } from 'vovk-mcp-gateway';
import { DATA_TTL_MS } from '@/lib/resource-freshness';
import { BoardChangeSchema, BoardEventSchema, BoardSchema, BoardWaitSchema } from './board-schemas';
import BoardService from './board-service';

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
  @resource({ changedBy: { tasks: '*', users: '*' }, ttlMs: DATA_TTL_MS })
  static getBoard = procedure({ output: BoardSchema }).handle(async () => BoardService.getBoard());

  @operation({
    summary: 'Wait for the next change',
    description:
      'Answers the board with its version once it differs from `after` (the version the caller shows): at once when it already does or `after` is left out, else when the board next changes (from any door or instance), else after `timeoutMs` (25 s by default) with `changed: false`. One request per change instead of polling; the board MCP App calls it through its host (an app-only tool: hosts do not offer it to the model).',
  })
  @get('changes')
  @mcpApp('board', { visibility: ['app'] })
  static waitForChange = procedure({ query: BoardWaitSchema, output: BoardChangeSchema }).handle(async (req) => {
    const { after, timeoutMs } = req.vovk.query();
    return BoardService.waitForChange(after, timeoutMs, workSignal());
  });

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
