// An HttpException with details (DetailedHttpException): its REST body and its MCP result carry them, in production too.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpStatus, initSegment, post, prefix, procedure } from 'vovk';
import { DetailedHttpException, maskErrorForRest, ToModelOutput, withErrorDetails } from '@gateway/tools';

const errors = [{ row: 2, reason: 'title: Too small' }];
const refusal = () => new DetailedHttpException(HttpStatus.UNPROCESSABLE_ENTITY, 'Row 2 is not a valid task', { errors });

@prefix('detailed')
class DetailedController {
  @post('refuse')
  static refuse = procedure().handle(() => {
    throw refusal();
  });

  @post('plain')
  static plain = procedure().handle(() => {
    throw new Error('secret connection string');
  });
}

const segment = initSegment({ controllers: { DetailedController }, onError: maskErrorForRest });
const restPost = withErrorDetails(segment.POST);

/** A REST POST of `path` through the segment, as the REST route serves it. */
async function postTo(path: string): Promise<Response> {
  const request = new Request(`http://localhost/api/detailed/${path}`, { method: 'POST' });
  return restPost(request as never, { params: Promise.resolve({ vovk: ['detailed', path] }) } as never);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe.each(['development', 'production'])('%s', (mode) => {
  test('[R08][R09] MCP: isError, its message, then its details as JSON; no structuredContent', async () => {
    vi.stubEnv('NODE_ENV', mode);
    expect(await ToModelOutput.MCP(refusal(), null, null)).toEqual({
      content: [
        { type: 'text', text: 'Row 2 is not a valid task' },
        { type: 'text', text: JSON.stringify({ errors }) },
      ],
      isError: true,
    });
    expect(ToModelOutput.DEFAULT(refusal())).toEqual({ error: 'Row 2 is not a valid task', errors });
  });

  test('its JSON, and its own fields, hold each detail once', () => {
    vi.stubEnv('NODE_ENV', mode);
    const error = refusal();
    expect(JSON.parse(JSON.stringify(error))).toEqual({ isError: true, statusCode: 422, message: 'Row 2 is not a valid task', errors });
    expect(Object.keys(error)).not.toContain('details');
  });

  test('REST: the error body carries the details beside statusCode and message', async () => {
    vi.stubEnv('NODE_ENV', mode);
    const response = await postTo('refuse');
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ statusCode: 422, message: 'Row 2 is not a valid task', isError: true, errors });
  });
});

test('REST: other errors keep Vovk’s body (masked in production), untouched by the details of another request', async () => {
  vi.stubEnv('NODE_ENV', 'production');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await postTo('refuse');
  const response = await postTo('plain');
  expect(response.status).toBe(500);
  const body = await response.json();
  expect(body).toEqual({ statusCode: 500, message: 'Internal server error', isError: true, cause: { errorId: expect.any(String) } });
});
