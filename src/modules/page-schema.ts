// The paging query parameters of the demo's list procedures (offset and limit), which cut MCP results name as the way on.
import { z } from 'zod';

/** `offset` and `limit` of a list of `things`, both optional: without them a list answers every row. */
export const pageFields = (things: string) => ({
  offset: z.coerce.number().int().min(0).optional().meta({ description: `How many ${things} to skip, in list order (default 0)` }),
  limit: z.coerce.number().int().min(1).optional().meta({ description: `The most ${things} to return (default all)` }),
});
