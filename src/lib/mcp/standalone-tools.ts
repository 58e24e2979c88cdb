// Standalone MCP tools (not derived from a procedure), formatted by the same ToModelOutput.MCP as derived tools.
import { z } from 'zod';
import { standardTool, ToModelOutput, withFormattedOutput } from '@/lib/tools';

const sumNumbers = standardTool({
  name: 'sum_numbers',
  description: 'Returns the sum of two numbers provided as input.',
  inputSchema: z.object({
    a: z.number().meta({ description: 'First addend' }),
    b: z.number().meta({ description: 'Second addend' }),
  }),
  outputSchema: z.number(),
  execute({ a, b }) {
    return a + b;
  },
});

const sumNumbersMCP = withFormattedOutput(sumNumbers, (result) => ToModelOutput.MCP(result, sumNumbers, null));

export const standaloneTools = [sumNumbersMCP];
