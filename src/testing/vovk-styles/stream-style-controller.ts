// Test-only JSONLines procedures in the styles of Vovk's docs: an `iteration` generator and a JSONLinesResponder.
import { setTimeout as sleep } from 'node:timers/promises';
import { get, HttpException, HttpStatus, JSONLinesResponder, operation, prefix, procedure } from 'vovk';
import { z } from 'zod';

/** What a recorded run did: how many ticks it yielded, whether it ran to its end or was stopped before. */
interface RunRecord {
  produced: number;
  finished: boolean;
  stopped: boolean;
  /** Whether the request's signal was aborted when the generator ended. */
  aborted: boolean;
}

/** Recorded runs of streamTicks, by their name. */
const runs = new Map<string, RunRecord>();

@prefix('vovk-styles/streams')
export default class StreamStyleController {
  @operation({
    summary: 'Stream ticks',
    description:
      'Yields `count` ticks, one every `delayMs`, each checked by the iteration schema. A wait ends when the request ' +
      'is aborted unless `signal` is `ignore`; `run` records the run (how far it got, whether it was stopped); ' +
      '`fail` fails after two ticks: `throw` throws a 409, `invalid` yields a tick the iteration schema refuses.',
  })
  @get('ticks')
  static streamTicks = procedure({
    query: z
      .object({
        count: z.coerce.number().int().min(1).max(5000).meta({ description: 'How many ticks' }),
        delayMs: z.coerce.number().int().min(0).max(1000).optional().meta({ description: 'Milliseconds between two' }),
        run: z.string().min(1).max(100).optional().meta({ description: 'A name to record the run under' }),
        signal: z.enum(['heed', 'ignore']).optional().meta({ description: 'Whether waits heed the request signal' }),
        fail: z.enum(['throw', 'invalid']).optional().meta({ description: 'How it fails after two ticks' }),
      })
      .meta({ description: 'Query parameters' }),
    iteration: z
      .object({
        n: z.int().min(1).meta({ description: 'Which tick' }),
        message: z.string().meta({ description: 'What it says' }),
      })
      .meta({ description: 'One tick' }),
    validateEachIteration: true,
  }).handle(async function* (req) {
    const count = Number(req.nextUrl.searchParams.get('count'));
    const { delayMs = 0, run, signal = 'heed', fail } = req.vovk.query();
    const record: RunRecord = { produced: 0, finished: false, stopped: false, aborted: false };
    if (run) runs.set(run, record);
    try {
      for (let n = 1; n <= count; n++) {
        if (n > 1 && delayMs) await sleep(delayMs, undefined, signal === 'heed' ? { signal: req.signal } : {});
        if (n === 3 && fail === 'throw') throw new HttpException(HttpStatus.CONFLICT, 'The stream broke after 2 ticks');
        record.produced = n;
        yield { n: n === 3 && fail === 'invalid' ? -n : n, message: `tick ${n} of ${count}` };
      }
      record.finished = true;
    } finally {
      record.stopped = !record.finished;
      record.aborted = req.signal.aborted;
    }
  });

  @operation({ summary: 'A recorded run', description: 'What the run `run` of streamTicks did so far.' })
  @operation.tool({ hidden: true })
  @get('ticks/runs/{run}')
  static getRun = procedure({
    params: z.object({ run: z.string().meta({ description: 'The run' }) }).meta({ description: 'Path parameters' }),
  }).handle((req) => runs.get(req.vovk.params().run) ?? null);

  @operation({
    summary: 'Stream words',
    description: 'Sends each word of `words` as a line through a JSONLinesResponder; a word `boom` throws there.',
  })
  @get('words')
  static streamWords = procedure({
    query: z
      .object({ words: z.string().meta({ description: 'Words, separated by spaces' }) })
      .meta({ description: 'Query parameters' }),
    iteration: z.object({ index: z.int(), word: z.string() }).meta({ description: 'One word' }),
  }).handle(async (req) => {
    const responder = new JSONLinesResponder<{ index: number; word: string }>(req);
    const words = req.nextUrl.searchParams.get('words').split(' ').filter(Boolean);
    void (async () => {
      for (const [index, word] of words.entries()) {
        if (word === 'boom') {
          return responder.throw(new HttpException(HttpStatus.CONFLICT, `The word at ${index} blew up`));
        }
        await responder.send({ index, word });
      }
      responder.close();
    })();
    return responder;
  });
}
