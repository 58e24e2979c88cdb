// Benchmark-only procedures (test build, GATEWAY_BENCHMARK=1): large images for the media scenarios, a CPU profile of a
// window of load, and the hand-written MCP baseline at /api/bench/mcp (no file in the app tree: the production build answers 404 to every method).
import { get, operation, post, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { largeImage } from './bench-media';
import { startCpuProfile, stopCpuProfile } from './cpu-profile';
import { handwrittenMcpHandler } from './floors';

@prefix('bench')
export default class BenchController {
  @operation({ summary: 'Large image', description: 'Returns a PNG-typed body of 1 or 8 MiB, for the media benchmark.' })
  @get('image')
  static getLargeImage = procedure({
    query: z.object({ mib: z.enum(['1', '8']).meta({ description: 'Size in MiB' }) }).meta({ description: 'Query parameters' }),
  }).handle((req) => {
    return new Response(largeImage(Number(req.vovk.query().mib)), { headers: { 'Content-Type': 'image/png' } });
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
