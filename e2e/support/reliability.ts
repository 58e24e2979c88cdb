// Helpers of the reliability specs (shutdown, durability, database outage): outcomes of raw requests, board streams
// read line by line, server log waits, and the figures each spec writes for RELIABILITY.md (npm run soak).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { type RawRequestOptions, rawRequest } from './json-rpc';
import type { RunningServer } from './server';

/** Where the reliability specs write their figures; `npm run soak` puts them into RELIABILITY.md. */
const figuresDir = path.resolve('test-reports', 'reliability');

export function writeFigures(name: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(figuresDir, { recursive: true });
  fs.writeFileSync(path.join(figuresDir, `${name}.json`), JSON.stringify({ ...figures, measuredAt: new Date().toISOString() }, null, 2));
}

/** What became of one request: an HTTP answer, or the connection error (ECONNRESET, ECONNREFUSED, …). */
export type Outcome =
  | { status: number; connection?: string; retryAfter?: string; text: string; error?: undefined }
  | { error: string; status?: undefined; connection?: undefined; retryAfter?: undefined; text?: undefined };

/** Sends one request (node:http, so that connection errors keep their code) and never throws. */
export async function attempt(url: string, options: RawRequestOptions = {}): Promise<Outcome> {
  try {
    const { status, headers, text } = await rawRequest(url, options);
    return { status, connection: headers.connection, retryAfter: headers['retry-after'] as string | undefined, text };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/** A short label of an outcome, for tallies: `200`, `503 close`, `ECONNRESET`. */
const outcomeLabel = (outcome: Outcome) =>
  outcome.error ?? `${outcome.status}${outcome.connection === 'close' ? ' close' : ''}`;

export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcomeLabel(outcome)] = (counts[outcomeLabel(outcome)] ?? 0) + 1;
  return counts;
}

/** An open board stream: the events so far, and how it ended (`end`: the server closed it cleanly). */
export interface BoardStream {
  events: Array<{ type: string; board?: { columns: Array<{ tasks: Array<{ id: number; title: string }> }> } }>;
  ended: Promise<'end' | string>;
}

/** Opens `GET /api/board/stream` and reads its JSON Lines until the server ends it (or the connection fails). */
export async function openBoardStream(baseURL: string): Promise<BoardStream> {
  const response = await fetch(`${baseURL}/api/board/stream`, { headers: { accept: 'application/jsonl' } });
  expect(response.status).toBe(200);
  const stream: BoardStream = { events: [], ended: Promise.resolve('end') };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'end';
        buffered += value;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines.filter(Boolean)) stream.events.push(JSON.parse(line));
      }
    } catch (error) {
      return String((error as Error).cause ?? error);
    }
  })();
  await expect.poll(() => stream.events.length).toBeGreaterThan(0);
  return stream;
}

/** Waits until the server's log has a line matching `pattern`. */
export async function waitForLog(server: RunningServer, pattern: RegExp, timeout = 10_000): Promise<void> {
  await expect.poll(() => pattern.test(fs.readFileSync(server.logFile, 'utf8')), { timeout, intervals: [20] }).toBe(true);
}

/** The tasks of each column must sit at positions exactly 0…n-1. */
export function expectContiguousPositions(tasks: Array<{ status: string; position: number }>): void {
  for (const status of new Set(tasks.map((task) => task.status))) {
    const positions = tasks.filter((task) => task.status === status).map((task) => task.position).sort((a, b) => a - b);
    expect(positions, `positions of ${status}`).toEqual(positions.map((_, index) => index));
  }
}
