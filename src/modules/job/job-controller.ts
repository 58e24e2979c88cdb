// REST only: the jobs that `Prefer: respond-async` started (GET to follow one, DELETE to cancel it).
import { del, get, operation, prefix, procedure } from 'vovk';
import { z } from 'zod';
import { cancelRestJob, getRestJob } from 'vovk-mcp-gateway';
import { JobSchema } from './job-schemas';

const JobIdParamsSchema = z
  // Any id: one that names no job of the caller is a 404 whatever its form (jobs are UUIDs, but a caller need not know).
  .object({ id: z.string().min(1).max(200).meta({ description: 'The job id from the 202 answer (its Location)' }) })
  .meta({ description: 'Path parameters' });

@prefix('jobs')
export default class JobController {
  @operation({
    summary: 'Get job',
    description:
      'A job that a call with `Prefer: respond-async` started: its status (working, input_required, completed, failed, cancelled), progress, and once ended its result (the procedure’s JSON) or error ({ statusCode, message }). Jobs are kept for JOB_RESULT_TTL_MS after they end. Unknown or another caller’s id → 404.',
  })
  @operation.tool({ hidden: true })
  @get('{id}')
  static getJob = procedure({ params: JobIdParamsSchema, output: JobSchema }).handle(async (req) => getRestJob(req.vovk.params().id));

  @operation({
    summary: 'Cancel job',
    description:
      'Cancels a running job: 202 with the job, now cancelled (what it had not committed is not kept). A job that already ended → 409 naming its status; unknown or another caller’s id → 404.',
    responses: {
      202: { description: 'Cancelled: the job, now cancelled', content: { 'application/json': { schema: z.toJSONSchema(JobSchema) } } },
      404: { description: 'No job of the caller has this id' },
      409: { description: 'The job has already ended: the message names its status' },
    },
  })
  @operation.tool({ hidden: true })
  @del('{id}')
  static cancelJob = procedure({ params: JobIdParamsSchema }).handle(async (req) => cancelRestJob(req.vovk.params().id));
}
