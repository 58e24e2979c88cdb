// The REST shape of a job (`GET /api/jobs/{id}`, the 202 answer of `Prefer: respond-async`).
import { z } from 'zod';

export const JobSchema = z
  .object({
    id: z.string().meta({ description: 'The job id' }),
    status: z
      .enum(['working', 'input_required', 'completed', 'failed', 'cancelled'])
      .meta({ description: "Where the job is (MCP's task statuses)" }),
    progress: z
      .object({
        done: z.number().meta({ description: 'Units done so far' }),
        total: z.number().optional().meta({ description: 'Units in all, when known' }),
        message: z.string().optional().meta({ description: 'How far it got, for people' }),
      })
      .meta({ description: 'Progress' }),
    statusMessage: z.string().optional().meta({ description: 'What the status means right now' }),
    result: z.unknown().optional().meta({ description: 'Once completed: what the procedure answered' }),
    error: z
      .looseObject({ statusCode: z.number(), message: z.string() })
      .optional()
      .meta({ description: 'Once failed: the error body the synchronous call would have answered' }),
    createdAt: z.string().meta({ description: 'When it started (ISO 8601)' }),
    updatedAt: z.string().meta({ description: 'When it last changed (ISO 8601)' }),
  })
  .meta({ description: 'A job' });
