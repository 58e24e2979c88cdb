// Test-only controller of a REST segment on the edge runtime (/api/edge/…): it imports nothing node-only.
import { HttpException, HttpStatus, operation, post, prefix, procedure } from 'vovk';
import { z } from 'zod';

@prefix('vovk-styles')
export default class EdgeStyleController {
  @operation({
    summary: 'Shout',
    description: 'Answers the body’s text in capitals, `times` times, for the word of its path; `quiet` is refused.',
  })
  @post('shout/{word}')
  static shout = procedure({
    params: z
      .object({ word: z.string().min(1).meta({ description: 'Any word' }) })
      .meta({ description: 'Path parameters' }),
    query: z
      .object({ times: z.coerce.number().int().min(1).max(5).optional().meta({ description: 'How many times' }) })
      .meta({ description: 'Query parameters' }),
    body: z.object({ text: z.string().meta({ description: 'Any text' }) }).meta({ description: 'What to shout' }),
  }).handle(async (req, { word }) => {
    if (word === 'quiet') throw new HttpException(HttpStatus.UNPROCESSABLE_ENTITY, 'Quiet words are not shouted');
    const { text } = await req.json();
    const times = Number(req.nextUrl.searchParams.get('times') ?? 1);
    return { word, shouted: Array(times).fill(`${text.toUpperCase()}!`).join(' '), pathname: req.nextUrl.pathname };
  });
}
