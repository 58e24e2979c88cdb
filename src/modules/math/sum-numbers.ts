// The standalone `sum_numbers` tool (MCP only, no REST route): the gateway formats it like every derived tool.
import { z } from 'zod';
import { standardTool } from 'vovk-mcp-gateway';

export const sumNumbers = standardTool({
  name: 'sum_numbers',
  description: 'Returns the sum of two numbers provided as input.',
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    a: z.number().meta({ description: 'First addend' }),
    b: z.number().meta({ description: 'Second addend' }),
  }),
  outputSchema: z.number(),
  execute({ a, b }) {
    return a + b;
  },
});
