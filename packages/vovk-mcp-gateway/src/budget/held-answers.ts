// Whole answers of tool calls over the result budget, held in the gateway's database for a while: readable through
// resources/read (`vovk://gateway/results/{id}`) by the caller that made the call only, with the scopes of its tool.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { type McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { missingScopes } from '../auth/scopes.js';
import { database } from '../db/database.js';
import type { SqlDriver } from '../db/driver.js';
import { currentCaller, principalOf } from '../request-context.js';
import { filterListing } from '../mcp/resources/procedure-resources.js';

/** The URI template of a held answer. */
const HELD_ANSWER_TEMPLATE = 'vovk://gateway/results/{id}';

/** The most answers held for one principal: holding a new one lets its oldest go, so no caller fills the database. */
const MAX_HELD_PER_PRINCIPAL = 20;

/** A whole answer to hold: the tool that gave it, the scopes reading it takes, its text and media type. */
export interface AnswerToHold {
  tool: string;
  scopes: readonly string[];
  mimeType: string;
  text: string;
}

/** Where a held answer can be read, and until when (ms since the epoch). */
export interface HeldAnswer {
  uri: string;
  expiresAt: number;
}

type HeldRow = { owner: string; tool: string; scopes: string; mime_type: string; body: string; expires_at: number | string };

/** The held answers of every instance sharing the database: kept for `holdMs`, then gone (removed as others are held). */
export class HeldAnswers {
  constructor(
    private readonly holdMs: number,
    private readonly driver: () => SqlDriver = database,
  ) {}

  /** Holds `answer` for the caller of the request being served (its oldest goes past MAX_HELD_PER_PRINCIPAL). */
  async hold(answer: AnswerToHold, now = Date.now()): Promise<HeldAnswer> {
    const id = randomUUID();
    const expiresAt = now + this.holdMs;
    const owner = principalOf(currentCaller());
    await this.driver().record(async (query) => {
      await query('DELETE FROM gateway_held_answers WHERE expires_at < ?', [now]);
      await query(
        'INSERT INTO gateway_held_answers (id, owner, tool, scopes, mime_type, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [id, owner, answer.tool, JSON.stringify(answer.scopes), answer.mimeType, answer.text, now, expiresAt],
      );
      await query(
        `DELETE FROM gateway_held_answers WHERE owner = ? AND id NOT IN
           (SELECT id FROM gateway_held_answers WHERE owner = ? ORDER BY created_at DESC, id LIMIT ?)`,
        [owner, owner, MAX_HELD_PER_PRINCIPAL],
      );
    });
    return { uri: HELD_ANSWER_TEMPLATE.replace('{id}', id), expiresAt };
  }

  /**
   * The held answer `id` as the request's caller may read it: its own, not expired, and with every scope of the tool
   * that gave it; anything else reads as missing (another caller learns nothing of it).
   */
  async read(id: string, now = Date.now()): Promise<HeldRow | undefined> {
    const [row] = await this.driver().read((query) =>
      query<HeldRow>('SELECT owner, tool, scopes, mime_type, body, expires_at FROM gateway_held_answers WHERE id = ? AND owner = ?', [
        id,
        principalOf(currentCaller()),
      ]),
    );
    if (!row || Number(row.expires_at) < now) return undefined;
    return missingScopes(currentCaller()?.scopes, JSON.parse(row.scopes) as string[]).length ? undefined : row;
  }

  /** Serves the held answers on `server`: resources/read of `vovk://gateway/results/{id}` (not in templates/list). */
  register(server: McpServer): void {
    const template = new ResourceTemplate(HELD_ANSWER_TEMPLATE, { list: undefined });
    const metadata = {
      title: 'Held answer',
      description: 'The whole answer of a tool call that was over the result budget, as its result links it; readable by its caller for a while.',
      // Its caller's alone; it never changes while it is held (a copy kept past its expiry is still the same answer).
      cacheHint: { ttlMs: this.holdMs, cacheScope: 'private' as const },
    };
    server.registerResource('held-answer', template, metadata, async (uri, { id }) => {
      const row = typeof id === 'string' ? await this.read(id) : undefined;
      if (!row) throw new ResourceNotFoundError(uri.toString());
      return { contents: [{ uri: uri.toString(), mimeType: row.mime_type, text: row.body }] };
    });
    // Not listed: a held answer is reached by the link its result gives, never browsed.
    filterListing(server, 'resources/templates/list', (item) => item.uriTemplate !== HELD_ANSWER_TEMPLATE);
  }
}
