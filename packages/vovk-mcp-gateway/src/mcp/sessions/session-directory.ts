// Which instance holds which 2025-era MCP session, for instances sharing one PostgreSQL database, and which instances
// still run (the backend of each one's LISTEN connection is still connected).
import 'server-only';
import type { SqlDriver, SqlMessaging } from '../../db/driver.js';

/** A session as the directory knows it: the instance holding it and the principal it is bound to. */
export interface SessionRecord {
  owner: string;
  principal: string;
}

export class SessionDirectory {
  constructor(
    private readonly driver: SqlDriver,
    private readonly messaging: SqlMessaging,
    /** This instance. */
    readonly instance: string,
  ) {}

  /** Records (again) that this instance runs, reachable while its LISTEN connection — backend `pid` — is connected. */
  async announce(pid: number): Promise<void> {
    await this.driver.record((query) =>
      query(
        `INSERT INTO gateway_mcp_instances (id, listener_pid, seen_at) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET listener_pid = excluded.listener_pid, seen_at = excluded.seen_at`,
        [this.instance, pid, Date.now()],
      ),
    );
  }

  /** Records sessions this instance holds (again, after its record may have been pruned while it was cut off). */
  async register(sessions: Array<{ id: string; principal: string }>): Promise<void> {
    if (!sessions.length) return;
    await this.driver.record(async (query) => {
      for (const { id, principal } of sessions) {
        await query('INSERT INTO gateway_mcp_sessions (id, owner, principal, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING', [
          id,
          this.instance,
          principal,
          Date.now(),
        ]);
      }
    });
  }

  async find(sessionId: string): Promise<SessionRecord | undefined> {
    const rows = await this.driver.read((query) =>
      query<SessionRecord>('SELECT owner, principal FROM gateway_mcp_sessions WHERE id = ?', [sessionId]),
    );
    return rows[0];
  }

  async remove(sessionId: string): Promise<void> {
    await this.driver.record((query) => query('DELETE FROM gateway_mcp_sessions WHERE id = ?', [sessionId]));
  }

  /** Whether `instance` still runs: its LISTEN connection's backend is connected to the database. */
  async isRunning(instance: string): Promise<boolean> {
    const rows = await this.driver.read((query) =>
      query<{ pid: number }>('SELECT listener_pid AS pid FROM gateway_mcp_instances WHERE id = ?', [instance]),
    );
    if (!rows.length) return false;
    return (await this.messaging.connectedBackends([rows[0].pid])).has(rows[0].pid);
  }

  /**
   * Forgets the instances that stopped (killed, or cut off from the database) with their sessions and those sessions'
   * events: their clients get 404 and start new sessions. An instance that came back meanwhile (a new pid) is kept.
   */
  async pruneStopped(): Promise<void> {
    const instances = await this.driver.read((query) =>
      query<{ id: string; pid: number }>('SELECT id, listener_pid AS pid FROM gateway_mcp_instances'),
    );
    const connected = await this.messaging.connectedBackends(instances.map((instance) => instance.pid));
    for (const { id, pid } of instances) {
      if (id === this.instance || connected.has(pid)) continue;
      await this.driver.record(async (query) => {
        const gone = await query('DELETE FROM gateway_mcp_instances WHERE id = ? AND listener_pid = ? RETURNING id', [id, pid]);
        if (!gone.length) return;
        await query('DELETE FROM gateway_mcp_events WHERE session_id IN (SELECT id FROM gateway_mcp_sessions WHERE owner = ?)', [id]);
        await query('DELETE FROM gateway_mcp_sessions WHERE owner = ?', [id]);
      });
    }
  }
}
