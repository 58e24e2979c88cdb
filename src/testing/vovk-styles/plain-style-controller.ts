// Test-only plain static methods without `procedure()`, as Vovk's basic example writes them: no schema at all.
import { get, HttpException, HttpStatus, post, prefix, type VovkRequest } from 'vovk';

@prefix('vovk-styles/basic')
export default class PlainStyleController {
  /** Returns a greeting. */
  @get('greeting')
  static getHello() {
    return { greeting: 'Hello world!' };
  }

  /** Answers the greeting it was sent, and the query it was called with; checks the body itself (it has no schema). */
  @post('greeting')
  static async postHello(req: VovkRequest<{ greeting: string }>) {
    const { greeting } = (await req.json()) ?? {};
    if (typeof greeting !== 'string') throw new HttpException(HttpStatus.BAD_REQUEST, 'greeting must be a string');
    return { greeting: `${greeting} back`, query: Object.fromEntries(req.nextUrl.searchParams.entries()) };
  }

  /** Spells out the word of its path. */
  @get('words/{word}')
  static getWord(_req: VovkRequest, { word }: { word: string }) {
    return { word, letters: [...word] };
  }
}
