// `notifications/tasks` on 2026-07-28 listen streams: a `taskIds` filter, acknowledged, then each change of those tasks.
import 'server-only';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { currentCaller, principalOf } from '@/lib/request-context';
import { jobRunner } from '@/lib/long-work/job-runner';
import { isFinished } from '@/lib/long-work/job-store';
import { detailedTaskV2 } from './mcp-tasks';

type ListenHandler = (req: Request) => Promise<Response>;
type ListenBody = { id?: unknown; params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> } };

const encoder = new TextEncoder();
const frame = (message: object) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);

/** The JSON-RPC -32021 a listen request for task notifications gets from a client that did not declare the extension. */
function missingExtension(id: unknown): Response {
  const requiredCapabilities = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };
  const error = { code: -32021, message: 'Missing required client capability: task notifications need the Tasks extension', data: { requiredCapabilities } };
  return Response.json({ jsonrpc: '2.0', id: id ?? null, error }, { status: 400 });
}

/**
 * Serves a listen request whose filter names `taskIds`: the SDK's listen handler serves the rest of the filter (when
 * nothing else is asked, a list it then stays quiet about, so that the stream stays open), its acknowledgement is
 * amended with the task ids agreed to (the caller's tasks), and a `notifications/tasks` (the task as `tasks/get`
 * answers it) is added to the stream each time one of them changes, on any instance. Other requests: `listen` as is.
 */
export function withTaskNotifications(listen: ListenHandler): ListenHandler {
  return async (req) => {
    const body = (await req.clone().json().catch(() => undefined)) as ListenBody | undefined;
    const filter = body?.params?.notifications;
    if (!body || !filter || !Array.isArray(filter.taskIds)) return listen(req);
    const capabilities = body.params?._meta?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
    if (capabilities?.extensions?.[TASKS_EXTENSION_ID_V2] === undefined) return missingExtension(body.id);
    const owner = principalOf(currentCaller());
    const requested = filter.taskIds.filter((id): id is string => typeof id === 'string');
    const owned = await Promise.all(requested.map(async (id) => ((await jobRunner().get(id, owner))?.door === 'mcp' ? id : undefined)));
    const taskIds = new Set(owned.filter((id) => id !== undefined));
    const { taskIds: _taskIds, ...rest } = filter;
    const quietList = Object.keys(rest).length === 0;
    const sdkFilter = quietList ? { toolsListChanged: true } : rest;
    const sdkBody = { ...body, params: { ...body.params, notifications: sdkFilter } };
    const forwarded = new Request(req, { body: JSON.stringify(sdkBody), duplex: 'half' } as RequestInit);
    forwarded.headers.delete('content-length');
    // The verified token the guards put on the request goes along.
    const upstream = await listen(Object.assign(forwarded, { auth: (req as Request & { auth?: unknown }).auth }));
    if (!upstream.body || !upstream.headers.get('content-type')?.includes('text/event-stream')) return upstream;
    return new Response(amendedStream(upstream.body, { taskIds, owner, quietList }), { status: upstream.status, headers: upstream.headers });
  };
}

/** The SDK's listen stream, with its acknowledgement amended and task notifications added (see above). */
function amendedStream(source: ReadableStream<Uint8Array>, { taskIds, owner, quietList }: { taskIds: Set<string>; owner: string; quietList: boolean }) {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let subscriptionId: unknown;
  let stop = () => {};
  let buffered = '';
  /** One event of the SDK's stream, as it goes on to the client (or not at all). */
  const amended = (event: string): Uint8Array | undefined => {
    const data = event.match(/^data: (.*)$/m)?.[1];
    const message = data ? (JSON.parse(data) as { method?: string; params?: Record<string, unknown> }) : undefined;
    if (message?.method === 'notifications/tools/list_changed' && quietList) return undefined;
    if (message?.method !== 'notifications/subscriptions/acknowledged' || !message.params) return encoder.encode(`${event}\n\n`);
    subscriptionId = (message.params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
    const honored = quietList ? {} : (message.params.notifications as object);
    return frame({ ...message, params: { ...message.params, notifications: { ...honored, taskIds: [...taskIds] } } });
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stop = jobRunner().onChange((id) => {
        if (!taskIds.has(id)) return;
        void jobRunner()
          .get(id, owner)
          .then((job) => {
            if (!job) return;
            if (isFinished(job.status)) taskIds.delete(id);
            const params = { ...detailedTaskV2(job), _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } };
            controller.enqueue(frame({ jsonrpc: '2.0', method: 'notifications/tasks', params }));
          })
          .catch(() => undefined);
      });
    },
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) {
        stop();
        controller.close();
        return;
      }
      buffered += decoder.decode(value, { stream: true });
      const events = buffered.split('\n\n');
      buffered = events.pop()!;
      for (const event of events) {
        const bytes = amended(event);
        if (bytes) controller.enqueue(bytes);
      }
    },
    cancel(reason) {
      stop();
      return reader.cancel(reason);
    },
  });
}
