// Benchmark-only procedures (test build, GATEWAY_BENCHMARK=1): large images for the media scenarios, a stream of N small
// items for the streams figures, a CPU profile of a window of load, and the hand-written MCP baseline at /api/bench/mcp
// (no file in the app tree: the production build answers 404 to every method).
import { get, JSONLinesResponder, operation, post, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { largeImage } from './bench-media';
import { startCpuProfile, stopCpuProfile } from './cpu-profile';
import { handwrittenMcpHandler } from './floors';

const StreamQuerySchema = z
  .object({ count: z.coerce.number().int().min(1).max(100_000).meta({ description: 'How many items' }) })
  .meta({ description: 'Query parameters' });
const StreamItemSchema = z.object({ i: z.number().int(), label: z.string() }).meta({ description: 'One item' });

@prefix('bench')
export default class BenchController {
  @operation({ summary: 'Large image', description: 'Returns a PNG-typed body of 1 or 8 MiB, for the media benchmark.' })
  @get('image')
  static getLargeImage = procedure({
    query: z.object({ mib: z.enum(['1', '8']).meta({ description: 'Size in MiB' }) }).meta({ description: 'Query parameters' }),
  }).handle((req) => {
    return new Response(largeImage(Number(req.vovk.query().mib)), { headers: { 'Content-Type': 'image/png' } });
  });

  @operation({
    summary: 'Stream items',
    description: 'JSON Lines of `count` small items, yielded one after another with no delay, for the streams benchmark.',
  })
  @get('stream')
  static streamItems = procedure({ query: StreamQuerySchema, iteration: StreamItemSchema }).handle(async function* (req) {
    const { count } = req.vovk.query();
    for (let i = 1; i <= count; i++) yield { i, label: `item ${i}` };
  });

  @operation({
    summary: 'Stream items by responder',
    description: 'The same items sent through a JSONLinesResponder (the other way Vovk streams), for the streams benchmark.',
  })
  @get('stream-responder')
  static streamItemsByResponder = procedure({ query: StreamQuerySchema, iteration: StreamItemSchema }).handle((req) => {
    const { count } = req.vovk.query();
    const responder = new JSONLinesResponder<z.infer<typeof StreamItemSchema>>(req);
    void (async () => {
      for (let i = 1; i <= count; i++) await responder.send({ i, label: `item ${i}` });
      responder.close();
    })();
    return responder;
  });

  @operation({ summary: 'Hand-written MCP', description: 'getUser as a hand-written mcp-handler tool: the benchmark baseline.' })
  @operation.tool({ hidden: true })
  @post('mcp')
  static handwrittenMcp = procedure().handle((req) => handwrittenMcpHandler(req));

  @operation({ summary: 'Start a CPU profile', description: 'Starts V8’s sampling profiler in the server process, for the profile benchmark.' })
  @operation.tool({ hidden: true })
  @post('profile/start')
  static startProfile = procedure().handle(async () => {
    await startCpuProfile();
    return { started: true };
  });

  @operation({ summary: 'Stop the CPU profile', description: 'Stops the sampling profiler and answers the profile (.cpuprofile JSON).' })
  @operation.tool({ hidden: true })
  @post('profile/stop')
  static stopProfile = procedure().handle(() => stopCpuProfile());
}
