// The gateway's own migration set: its tables only (sessions, relay, jobs and tasks), each named `gateway_…` so that
// none meets a table of the app sharing the database. Append new migrations, never edit an applied one.
import 'server-only';
import type { MigrationSet } from './driver.js';

/** Long work (REST jobs and MCP tasks, one table; times in ms), with the dialect's type of a time in ms. */
const createJobs = (milliseconds: string) => `CREATE TABLE gateway_jobs (
     id text PRIMARY KEY,
     owner text NOT NULL,
     door text NOT NULL,
     tool text NOT NULL,
     input text NOT NULL,
     answers text NOT NULL DEFAULT '{}',
     status text NOT NULL,
     status_message text,
     progress text,
     input_requests text,
     outcome text,
     committed integer NOT NULL DEFAULT 0,
     instance text NOT NULL,
     heartbeat_at ${milliseconds} NOT NULL,
     created_at ${milliseconds} NOT NULL,
     updated_at ${milliseconds} NOT NULL,
     ttl_ms ${milliseconds} NOT NULL
   );
   CREATE INDEX gateway_jobs_running ON gateway_jobs (status, heartbeat_at);
   CREATE INDEX gateway_jobs_by_owner ON gateway_jobs (owner, status);`;

/** The events of 2025-era MCP sessions, replayed to a client that reconnects with Last-Event-ID (created_at: ms). */
const createSessionEvents = (identity: string, milliseconds: string) => `CREATE TABLE gateway_mcp_events (
     id ${identity},
     session_id text NOT NULL,
     stream_id text NOT NULL,
     message text NOT NULL,
     created_at ${milliseconds} NOT NULL
   );
   CREATE INDEX gateway_mcp_events_by_stream ON gateway_mcp_events (session_id, stream_id, id);
   CREATE INDEX gateway_mcp_events_by_age ON gateway_mcp_events (created_at);`;

/** Whole answers of tool calls over the result budget, held for a while for their caller (times in ms). */
const createHeldAnswers = (milliseconds: string) => `CREATE TABLE gateway_held_answers (
     id text PRIMARY KEY,
     owner text NOT NULL,
     tool text NOT NULL,
     scopes text NOT NULL,
     mime_type text NOT NULL,
     body text NOT NULL,
     created_at ${milliseconds} NOT NULL,
     expires_at ${milliseconds} NOT NULL
   );
   CREATE INDEX gateway_held_answers_by_expiry ON gateway_held_answers (expires_at);`;

/**
 * The tables of the gateway, tracked as the set `vovk-mcp-gateway`. SQLite serves one instance alone: session events
 * and jobs. PostgreSQL serves several: also which instance holds each session, how to tell whether an instance still
 * runs (the backend pid of its LISTEN connection), and relayed messages too large for NOTIFY.
 */
export const GATEWAY_MIGRATIONS: MigrationSet = {
  name: 'vovk-mcp-gateway',
  sqlite: [`${createSessionEvents('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER')}\n   ${createJobs('INTEGER')}`, createHeldAnswers('INTEGER')],
  postgres: [
    `${createSessionEvents('bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', 'bigint')}
   CREATE TABLE gateway_mcp_instances (
     id text PRIMARY KEY,
     listener_pid integer NOT NULL,
     seen_at bigint NOT NULL
   );
   CREATE TABLE gateway_mcp_sessions (
     id text PRIMARY KEY,
     owner text NOT NULL,
     principal text NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE INDEX gateway_mcp_sessions_by_owner ON gateway_mcp_sessions (owner);
   CREATE TABLE gateway_mcp_relay_payloads (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     payload text NOT NULL,
     created_at bigint NOT NULL
   );
   ${createJobs('bigint')}`,
    createHeldAnswers('bigint'),
  ],
};
