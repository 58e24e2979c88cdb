// Benchmark-only generated tools (GATEWAY_BENCHMARK_TOOLS=N): a large catalogue, to show a call's cost does not grow with it.
import { z } from 'zod';
import { standardTool } from 'vovk-mcp-gateway';

/** `count` small standalone tools, `bench_tool_1` … `bench_tool_N`, each with its own zod input schema. */
export function generatedBenchTools(count: number) {
  return Array.from({ length: count }, (_, index) =>
    standardTool({
      name: `bench_tool_${index + 1}`,
      description: `Generated benchmark tool number ${index + 1}: echoes its input.`,
      inputSchema: z.object({
        text: z.string().meta({ description: 'Any text' }),
        count: z.number().int().optional().meta({ description: 'Any integer' }),
      }),
      execute: (input) => input,
    }),
  );
}
