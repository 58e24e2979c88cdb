// The words a request for a tool is written in, mapped to the words tools are described with: what an action
// verb asks for (create, read, list, change, delete, move, import) and common synonyms of API nouns.
import 'server-only';

/** What a call does, as the verbs of requests and of tool names say it. */
export type Action = 'create' | 'read' | 'list' | 'update' | 'delete' | 'move' | 'import' | 'send';

/** Words of a request (lower case, before stemming) that ask for an action. */
const ACTION_WORDS: Record<Action, string[]> = {
  create: ['add', 'create', 'new', 'register', 'open', 'start', 'enter', 'log', 'record', 'onboard', 'invite', 'sign'],
  read: ['get', 'show', 'see', 'view', 'what', 'who', 'details', 'look', 'fetch', 'read', 'open', 'tell', 'whats', 'info'],
  list: ['list', 'all', 'every', 'which', 'browse', 'everyone', 'everything', 'overview', 'many'],
  update: ['update', 'change', 'edit', 'rename', 'modify', 'set', 'make', 'give', 'assign', 'reassign', 'unassign', 'promote', 'demote', 'mark', 'switch', 'turn', 'correct', 'hand', 'own', 'retitle', 'describe'],
  delete: ['delete', 'remove', 'drop', 'erase', 'destroy', 'rid', 'discard', 'kill', 'trash', 'purge', 'scrap', 'bin', 'nuke'],
  move: ['move', 'drag', 'reorder', 'shift', 'push', 'bump', 'slide', 'top', 'bottom', 'position'],
  import: ['import', 'load', 'bulk', 'upload', 'ingest', 'batch', 'csv', 'spreadsheet', 'rows'],
  send: ['send', 'email', 'mail', 'notify', 'remind'],
};

/** The action of a tool from the first word of its handler's name, else from its HTTP method. */
const HANDLER_VERBS: Record<string, Action> = {
  add: 'create', create: 'create', new: 'create', register: 'create', open: 'create', start: 'create', log: 'create', record: 'create',
  get: 'read', read: 'read', fetch: 'read', show: 'read', find: 'list', search: 'list', list: 'list', count: 'list',
  update: 'update', set: 'update', edit: 'update', rename: 'update', change: 'update', assign: 'update', mark: 'update',
  delete: 'delete', remove: 'delete', purge: 'delete', move: 'move', reorder: 'move', import: 'import', upload: 'import',
  send: 'send', email: 'send', notify: 'send', remind: 'send',
};
const METHOD_ACTIONS: Record<string, Action> = { GET: 'read', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/** Common synonyms: a word of a request → words tools use for the same thing. */
const SYNONYMS: Record<string, string[]> = {
  card: ['task'],
  todo: ['task'],
  chore: ['task'],
  kanban: ['board'],
  people: ['user'],
  person: ['user'],
  member: ['user'],
  folk: ['user'],
  picture: ['image'],
  photo: ['image'],
  pic: ['image'],
  png: ['image'],
  jpg: ['image', 'jpeg'],
  sound: ['audio'],
  mp3: ['audio'],
  recording: ['audio'],
  clip: ['audio'],
  voice: ['audio'],
  spoken: ['audio'],
  plus: ['sum', 'add', 'number'],
  minus: ['subtract', 'number'],
  assigned: ['assignee'],
  total: ['sum'],
  rss: ['feed'],
  hello: ['greeting'],
  greet: ['greeting'],
  spreadsheet: ['csv'],
};

const actionByWord = new Map<string, Action[]>();
for (const [action, words] of Object.entries(ACTION_WORDS) as Array<[Action, string[]]>) {
  for (const word of words) actionByWord.set(word, [...(actionByWord.get(word) ?? []), action]);
}

/** Phrases that mean one action word: replaced in a request before it is split into words. */
const PHRASES: Array<[RegExp, string]> = [
  [/\bget rid of\b/g, 'delete'],
  [/\bdo away with\b/g, 'delete'],
  [/\blook up\b/g, 'get'],
  [/\bset up\b/g, 'create'],
  [/\bsign up\b/g, 'create'],
  [/\bhand (it )?over\b/g, 'assign'],
  [/\bto do\b/g, 'todo'],
];

/** A request with its phrases said in one word (lower case). */
export function withPhrasesJoined(query: string): string {
  return PHRASES.reduce((text, [phrase, word]) => text.replace(phrase, word), query.toLowerCase());
}

/** The actions the words of a request ask for. */
export function actionsOf(words: readonly string[]): Set<Action> {
  const actions = new Set(words.flatMap((word) => actionByWord.get(word) ?? []));
  // "Who are all the users", "show me every card": reading many is listing.
  if (actions.has('list')) actions.delete('read');
  return actions;
}

/**
 * The action of a tool, from its handler's name (`TaskController_moveTask` → move), its HTTP method, or — a standalone
 * tool — whether it only reads.
 */
export function actionOfTool(name: string, method: string | undefined, readOnly: boolean | undefined): Action | undefined {
  const handler = name.slice(name.indexOf('_') + 1);
  const verb = handler.match(/^[a-z]+/)?.[0];
  return (verb && HANDLER_VERBS[verb]) || (method ? METHOD_ACTIONS[method.toUpperCase()] : readOnly ? 'read' : undefined);
}

/** The words tool names say an action with. */
const ACTION_NAMES: Record<Action, string[]> = {
  create: ['create', 'add'],
  read: ['get'],
  list: ['list'],
  update: ['update'],
  delete: ['delete', 'remove'],
  move: ['move'],
  import: ['import'],
  send: ['send'],
};

/** The words tool names say `action` with, added to a request that asks for it. */
export const actionWordsOf = (action: Action): readonly string[] => ACTION_NAMES[action];

/** The words tools use for a request's word, besides the word itself. */
export const synonymsOf = (word: string): readonly string[] => SYNONYMS[word] ?? [];
