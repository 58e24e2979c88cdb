// The data language of the generated catalogue: a business domain, its fields and its verbs, in a compact written form.

/** The HTTP decorators a verb may name (`del` is vovk's DELETE). */
type Method = 'get' | 'post' | 'put' | 'patch' | 'del';

/**
 * A field, written `type description`: `string Legal name, e.g. Acme GmbH`, `money? Amount to refund`.
 * Types: id int number money percent string text email url phone date datetime bool currency country status
 * (the domain's statuses) and `enum(a|b|c)`; `[]` after the type makes it a list, `?` after that makes it optional.
 * An ending `e.g. X` gives the sample value fake answers use. `[description, fields]` is a list of objects.
 */
export type Field = string | readonly [description: string, item: Fields];
export type Fields = Readonly<Record<string, Field>>;

/** What a verb answers: its domain's record, a page of records, `{ deleted, id }`, or fields of its own. */
export type Output = 'record' | 'list' | 'deleted' | Fields;

/** One procedure of a domain. `{id}` in its path is the record's id (`{invoiceId}`); other `{x}` are in `params`. */
export interface Verb {
  /** The handler name (the tool name's second half); by default the camel-cased summary. */
  name: string;
  method: Method;
  /** Below the domain's path; '' for the path itself. */
  path: string;
  summary: string;
  description: string;
  params?: Fields;
  query?: Fields;
  body?: Fields;
  /** Default: the record when the path names one, else a page of records (GET) or the new record. */
  output?: Output;
  /** Field values the answer takes whatever the input (a state change: `{ status: 'paid' }`). */
  sets?: Readonly<Record<string, string | number | boolean>>;
  /** Toolsets besides the module's and the domain's (`@toolset`). */
  toolsets?: readonly string[];
  /** It adds and never removes or overwrites (`destructiveHint: false`). */
  additive?: boolean;
  /** Listed beside the search surface's two tools (`@alwaysListed`). */
  alwaysListed?: boolean;
}

/** A business domain: one module of 20 procedures (its CRUD, its own verbs, then common ones to make up the count). */
export interface Domain {
  /** PascalCase, the module key without `Controller`: `Invoice`, `ProjectTask`. */
  key: string;
  /** The record in words when the key's words are not it: `API key`. */
  noun?: string;
  /** Its plural when adding -s or -es is wrong. */
  plural?: string;
  /** What the records are, as a plural noun phrase: `bills sent to customers for goods or services`. */
  about: string;
  /** The statuses a record goes through, first the one it is created in. */
  statuses?: readonly string[];
  /** What create takes and update changes. */
  fields: Fields;
  /** What a record has besides, read-only. */
  computed?: Fields;
  /** The list's filters besides status, limit and cursor. */
  filters?: Fields;
  /** The field (of `fields`) that names the user responsible, which `assign…` sets. */
  assignee?: string;
  /** Toolsets every procedure of the domain is in besides its module's. */
  toolsets: readonly string[];
  verbs: readonly Verb[];
  /** Common verbs that make no sense for it, by key (`duplicate`, `share`…: see COMMON in verbs.ts). */
  skip?: readonly string[];
}

type Route = Method | `${Method} ${string}`;
type VerbDetails = Partial<Omit<Verb, 'method' | 'path' | 'summary' | 'description'>>;

const ARTICLES = new Set(['a', 'an', 'the']);

/** `Mark invoice paid` → `markInvoicePaid`. */
function camelName(summary: string): string {
  const words = summary
    .replace(/['’]s\b/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && !ARTICLES.has(word.toLowerCase()))
    .map((word) => word.toLowerCase());
  return words.map((word, index) => (index ? word[0].toUpperCase() + word.slice(1) : word)).join('');
}

/** A verb written on one or two lines: `verb('post {id}/send', 'Send invoice', 'Emails…', { sets: … })`. */
export function verb(route: Route, summary: string, description: string, details: VerbDetails = {}): Verb {
  const [method, path = ''] = route.split(' ') as [Method, string?];
  return { name: details.name ?? camelName(summary), method, path, summary, description, ...details };
}
