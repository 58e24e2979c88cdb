// What the MCP conformance fixtures return: tiny media, fixed texts, and the MCP-context side effects (logs, progress).
import { currentToolCall } from 'vovk-mcp-gateway';

/** A 1×1 PNG and a silent, empty WAV: the smallest valid media for the suite's image and audio checks. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV_EMPTY = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A text/plain response: the formatter makes it one text item, as the suite expects. */
export const textResponse = (text: string) => new Response(text, { headers: { 'Content-Type': 'text/plain' } });

export default class ConformanceService {
  static readonly pngBase64 = PNG_1X1;

  static png(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(Buffer.from(PNG_1X1, 'base64'));
  }

  static wav(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(Buffer.from(WAV_EMPTY, 'base64'));
  }

  /** Sends three info logs, 50 ms apart, to the MCP client of the current call (none over REST). */
  static async logThreeSteps(): Promise<void> {
    const mcp = currentToolCall()?.mcp;
    for (const [index, step] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (index) await pause(50);
      await mcp?.mcpReq.log('info', step);
    }
  }

  /**
   * Closes the SSE stream of the call (possible on a 2025-era session that keeps its events), then waits a moment: the
   * client gets the answer by reconnecting with Last-Event-ID (SEP-1699). Elsewhere the answer simply follows.
   */
  static async closeStreamMidCall(): Promise<void> {
    currentToolCall()?.mcp.http?.closeSSE?.();
    await pause(100);
  }

  /** Reports progress 0, 50, 100 of 100 when the client sent a progress token. */
  static async reportProgress(): Promise<void> {
    const mcp = currentToolCall()?.mcp;
    const progressToken = mcp?.mcpReq._meta?.progressToken;
    for (const [index, progress] of [0, 50, 100].entries()) {
      if (index) await pause(50);
      if (progressToken !== undefined) {
        await mcp?.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      }
    }
  }
}
