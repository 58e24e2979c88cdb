// The events of 2025-era MCP sessions, kept in the gateway's database so that a client reconnecting with Last-Event-ID
// misses nothing; each session sees only its own events.
import 'server-only';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { SqlDriver } from '../../db/driver.js';

/** What an event id of this log looks like: its row number. */
const EVENT_ID = /^\d{1,15}$/;
/** How often a failure to store events is logged at most (an outage fails every event). */
const FAILURE_LOG_EVERY_MS = 5000;

/** The event store of one session: the SDK transport's `EventStore`, and whether an event id is one of this session's. */
export interface SessionEventStore extends EventStore {
  /** Whether `eventId` names a stored event of this session (false for another session's, unknown or expired ones). */
  owns(eventId: EventId): Promise<boolean>;
}

/** The events of every session (`gateway_mcp_events`), bounded by age and dropped with their session. */
export class SessionEventLog {
  private lastFailureLog = 0;
  private unsaved = 0;

  constructor(private readonly driver: SqlDriver) {}

  /**
   * The event store of session `sessionId`. Its stores and replays run one after another. The SDK transport sends an
   * answer live only when, once the answer is stored, it finds the stream a reconnect registers after its replay: had
   * the replay read the events while the answer was being stored, it would miss it, and the answer would reach neither
   * stream. In order, a replay reads every event stored before it, and an event stored after it finds its stream.
   */
  forSession(sessionId: string): SessionEventStore {
    let last: Promise<unknown> = Promise.resolve();
    const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
      const run = last.then(work);
      last = run.catch(() => undefined);
      return run;
    };
    return {
      storeEvent: (streamId, message) => inOrder(() => this.store(sessionId, streamId, message)),
      getStreamIdForEventId: (eventId) => this.streamOf(sessionId, eventId),
      replayEventsAfter: (eventId, { send }) => inOrder(() => this.replay(sessionId, eventId, send)),
      owns: async (eventId) => (await this.streamOf(sessionId, eventId)) !== undefined,
    };
  }

  /** Forgets the events of a session that ended. */
  async dropSession(sessionId: string): Promise<void> {
    await this.driver.record((query) => query('DELETE FROM gateway_mcp_events WHERE session_id = ?', [sessionId]));
  }

  /** Forgets every event stored before `time` (ms since the epoch). */
  async pruneBefore(time: number): Promise<void> {
    await this.driver.record((query) => query('DELETE FROM gateway_mcp_events WHERE created_at < ?', [time]));
  }

  /**
   * Stores one event and returns its id. When the database cannot take it the message is still sent live (the SDK sends
   * it after this resolves), only not resumable: its id then names no stored event, and a reconnect with it is refused.
   */
  private async store(sessionId: string, streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    try {
      const [{ id }] = await this.driver.record((query) =>
        query<{ id: string }>(
          'INSERT INTO gateway_mcp_events (session_id, stream_id, message, created_at) VALUES (?, ?, ?, ?) RETURNING CAST(id AS TEXT) AS id',
          [sessionId, streamId, JSON.stringify(message), Date.now()],
        ),
      );
      return id;
    } catch (error) {
      if (Date.now() - this.lastFailureLog > FAILURE_LOG_EVERY_MS) {
        this.lastFailureLog = Date.now();
        console.error(`[gateway] MCP session events cannot be stored (sent live, not resumable): ${(error as Error).message}`);
      }
      return `unsaved-${++this.unsaved}`;
    }
  }

  private async streamOf(sessionId: string, eventId: EventId): Promise<StreamId | undefined> {
    if (!EVENT_ID.test(eventId)) return undefined;
    const rows = await this.driver.read((query) =>
      query<{ streamId: string }>('SELECT stream_id AS "streamId" FROM gateway_mcp_events WHERE id = ? AND session_id = ?', [Number(eventId), sessionId]),
    );
    return rows[0]?.streamId;
  }

  /** Sends the events of the stream of `eventId` stored after it, in order; priming events (no message) are skipped. */
  private async replay(
    sessionId: string,
    eventId: EventId,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>,
  ): Promise<StreamId> {
    const streamId = await this.streamOf(sessionId, eventId);
    if (streamId === undefined) throw new Error(`Last-Event-ID ${eventId} is no event of this session`);
    const events = await this.driver.read((query) =>
      query<{ id: string; message: string }>(
        'SELECT CAST(id AS TEXT) AS id, message FROM gateway_mcp_events WHERE session_id = ? AND stream_id = ? AND id > ? ORDER BY id',
        [sessionId, streamId, Number(eventId)],
      ),
    );
    for (const event of events) {
      const message = JSON.parse(event.message) as JSONRPCMessage;
      if (Object.keys(message).length) await send(event.id, message);
    }
    return streamId;
  }
}
