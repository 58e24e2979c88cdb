// The procedures every domain has (list, get, create, update, delete) and the common ones that make up its twenty.
import { isOptional, isText, label } from './fields';
import { verb, type Domain, type Fields, type Verb } from './spec';

/** How many procedures a module has. */
export const PROCEDURES_PER_MODULE = 20;

/** A domain's words, as the generated names, paths and texts use them. */
export interface Words {
  /** `project task` */
  noun: string;
  /** `project tasks` */
  plural: string;
  /** `a project task`, `an invoice` */
  a: string;
  /** `ProjectTask` */
  Noun: string;
  /** `ProjectTasks` */
  Plural: string;
  /** `projectTaskId`: the record's id in paths */
  idName: string;
  /** `project-tasks` */
  path: string;
}

const capital = (word: string) => word[0].toUpperCase() + word.slice(1).toLowerCase();

function pluralOf(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** The words of a domain, from its key unless it gives its noun or plural. */
export function wordsOf(domain: Domain): Words {
  const noun = domain.noun ?? domain.key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const plural = domain.plural ?? pluralOf(noun);
  const pluralWords = plural.split(' ');
  return {
    noun,
    plural,
    a: `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`,
    Noun: domain.key,
    Plural: pluralWords.map(capital).join(''),
    idName: `${domain.key[0].toLowerCase()}${domain.key.slice(1)}Id`,
    path: pluralWords.join('-').toLowerCase(),
  };
}

/** `a, b and c` */
function listOf(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The fields as an update takes them: every one optional (lists of objects are replaced by their own verbs). */
function optionalAll(fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => typeof field === 'string')
      .map(([name, field]) => [
        name,
        isOptional(field) ? field : (field as string).replace(/^(\w+(?:\([^)]*\))?(?:\[\])?) /, '$1? '),
      ]),
  );
}

const LIMIT = 'int(1..100)? How many to return, 1 to 100 (default 20)';

/** list, get, create, update and delete. */
function crudVerbs(domain: Domain, w: Words): Verb[] {
  const statuses = domain.statuses ?? [];
  const filters = [...(statuses.length ? ['status'] : []), ...Object.keys(domain.filters ?? {})].map(label);
  const required = Object.entries(domain.fields)
    .filter(([, field]) => !isOptional(field))
    .map(([name]) => label(name));
  return [
    verb(
      'get',
      `List ${w.plural}`,
      `Returns ${w.plural}, ${domain.about}, newest first and a page at a time ` +
        `(limit, then the nextCursor of the previous page)${filters.length ? `; filter by ${listOf(filters)}` : ''}.`,
      {
        name: `list${w.Plural}`,
        query: {
          ...(statuses.length ? { status: `status? Only the ${w.plural} in this status` } : {}),
          ...domain.filters,
          limit: LIMIT,
          cursor: 'string? The nextCursor of the previous page, to get the next one',
        },
        output: 'list',
      },
    ),
    verb(
      'get {id}',
      `Get ${w.noun}`,
      `Returns ${w.a} by id, with all its fields. Fails with 404 when no ${w.noun} has that id.`,
      {
        name: `get${w.Noun}`,
      },
    ),
    verb(
      'post',
      `Create ${w.noun}`,
      `Adds ${w.a}${statuses.length ? ` (status ${statuses[0]})` : ''} and returns it with its new id. Required: ${listOf(required)}.`,
      {
        name: `create${w.Noun}`,
        body: domain.fields,
        output: 'record',
        additive: true,
        ...(statuses.length ? { sets: { status: statuses[0] } } : {}),
      },
    ),
    verb(
      'patch {id}',
      `Update ${w.noun}`,
      `Changes the given fields of ${w.a} (any of ${listOf(Object.keys(optionalAll(domain.fields)).map(label))}); ` +
        `fields left out keep their value. Fails with 404 when no ${w.noun} has that id.`,
      { name: `update${w.Noun}`, body: optionalAll(domain.fields) },
    ),
    verb(
      'del {id}',
      `Delete ${w.noun}`,
      `Deletes ${w.a} for good, with its comments and attachments. It cannot be undone.`,
      {
        name: `delete${w.Noun}`,
      },
    ),
  ];
}

type CommonVerb = (domain: Domain, w: Words) => Verb | undefined;

const comment = (w: Words): Fields => ({
  commentId: 'id Id of the comment',
  [w.idName]: `id The ${w.noun} commented on`,
  authorId: 'id The user who wrote it',
  text: 'text The comment, in Markdown',
  createdAt: 'datetime When it was written, ISO 8601 in UTC',
});
const attachment: Fields = {
  attachmentId: 'id Id of the attachment',
  fileName: 'string File name, e.g. signed-scan.pdf',
  url: 'url Where the file can be downloaded',
  sizeBytes: 'int Size of the file in bytes',
};

/** The common procedures by key, in the order a domain takes them from (starting at a place of its own). */
const COMMON: Record<string, CommonVerb> = {
  search: (domain, w) =>
    verb(
      'get search',
      `Search ${w.plural}`,
      `Finds the ${w.plural} whose ${
        listOf(
          Object.keys(domain.fields)
            .filter((name) => isText(domain.fields[name]))
            .map(label),
        ) || 'fields'
      } contain the words asked for, best match first.`,
      { name: `search${w.Plural}`, query: { q: `string Words to look for`, limit: LIMIT }, output: 'list' },
    ),
  export: (domain, w) =>
    verb(
      'get export',
      `Export ${w.plural}`,
      `Writes the ${w.plural}${domain.statuses ? ' (all, or those of one status)' : ''} to a CSV, Excel or JSON file ` +
        'and returns a download link that works for one hour.',
      {
        name: `export${w.Plural}`,
        query: {
          ...(domain.statuses ? { status: `status? Only the ${w.plural} in this status` } : {}),
          format: 'enum(csv|xlsx|json)? File format (default csv)',
        },
        output: {
          fileName: `string Name of the file, e.g. ${w.path}.csv`,
          format: 'enum(csv|xlsx|json) File format',
          rows: `int How many ${w.plural} the file holds`,
          downloadUrl: 'url Where to download it',
          expiresAt: 'datetime When the link stops working',
        },
      },
    ),
  import: (domain, w) =>
    verb(
      'post import',
      `Import ${w.plural}`,
      `Adds many ${w.plural} at once from CSV text whose header row names its columns ` +
        `(${listOf(Object.keys(domain.fields).map(label))}); all rows are added, or none. With dryRun the rows are only checked.`,
      {
        name: `import${w.Plural}`,
        body: {
          csv: `text The ${w.plural} as CSV: a header row, then one row per ${w.noun}`,
          dryRun: 'bool? Only check the rows, add nothing',
        },
        output: {
          imported: `int How many ${w.plural} were added`,
          ids: `id[] Ids of the new ${w.plural}, in row order`,
          skipped: 'int Rows left out as exact duplicates',
        },
        additive: true,
      },
    ),
  assign: (domain, w) =>
    domain.assignee === undefined
      ? undefined
      : verb(
          'put {id}/assignee',
          `Assign ${w.noun}`,
          `Makes a user the ${label(domain.assignee)} of ${w.a} and notifies them. Fails with 404 when no ${w.noun} has that id.`,
          {
            name: `assign${w.Noun}`,
            body: {
              [domain.assignee]: `id The user to make ${label(domain.assignee)}`,
              note: 'string? A message sent with the notification',
            },
          },
        ),
  archive: (_domain, w) =>
    verb(
      'post {id}/archive',
      `Archive ${w.noun}`,
      `Hides ${w.a} from lists and search without deleting it; restore${w.Noun} brings it back.`,
      {
        name: `archive${w.Noun}`,
        output: { id: `id The ${w.noun}`, archived: 'bool Always true', archivedAt: 'datetime When it was archived' },
        sets: { archived: true },
      },
    ),
  restore: (_domain, w) =>
    verb(
      'post {id}/restore',
      `Restore ${w.noun}`,
      `Brings back an archived ${w.noun}: it shows in lists and search again.`,
      {
        name: `restore${w.Noun}`,
      },
    ),
  comment: (_domain, w) =>
    verb(
      'post {id}/comments',
      `Comment on ${w.noun}`,
      `Adds a comment to the discussion of ${w.a}; users mentioned are notified.`,
      {
        name: `commentOn${w.Noun}`,
        body: { text: 'text The comment, in Markdown', mentionUserIds: 'id[]? Users to notify' },
        output: comment(w),
        additive: true,
      },
    ),
  comments: (_domain, w) =>
    verb('get {id}/comments', `List ${w.noun} comments`, `Returns the comments on ${w.a}, oldest first.`, {
      name: `list${w.Noun}Comments`,
      output: { items: ['The comments, oldest first', comment(w)] },
    }),
  history: (_domain, w) =>
    verb(
      'get {id}/history',
      `Get ${w.noun} history`,
      `Returns every change made to ${w.a}: who changed which field, from what to what, and when; newest first.`,
      {
        name: `get${w.Noun}History`,
        output: {
          items: [
            'The changes, newest first',
            {
              at: 'datetime When',
              userId: 'id Who made the change',
              field: 'string The field changed',
              from: 'string? Its value before',
              to: 'string? Its value after',
            },
          ],
        },
      },
    ),
  count: (domain, w) =>
    verb(
      'get stats',
      domain.statuses ? `Count ${w.plural} by status` : `Count ${w.plural}`,
      `Returns how many ${w.plural} there are${domain.statuses ? ', in all and in each status' : ''}, ` +
        'optionally only those created in a date range.',
      {
        name: `count${w.Plural}`,
        query: {
          createdFrom: 'date? Only those created on or after this day',
          createdTo: 'date? Only those created on or before this day',
        },
        output: {
          total: `int How many ${w.plural}`,
          ...(domain.statuses
            ? {
                byStatus: ['The count in each status', { status: 'status The status', count: 'int How many' }] as const,
              }
            : {}),
        },
        toolsets: ['reporting'],
      },
    ),
  bulkStatus: (domain, w) =>
    !domain.statuses
      ? undefined
      : verb(
          'post bulk/status',
          `Set status of many ${w.plural}`,
          `Puts several ${w.plural} in one status at once, each change recorded in its history.`,
          {
            name: `bulkSet${w.Plural}Status`,
            body: { ids: `id[] The ${w.plural} to change`, status: 'status The status they all take' },
            output: { updated: `int How many ${w.plural} changed`, ids: `id[] The ${w.plural} changed` },
          },
        ),
  duplicate: (_domain, w) =>
    verb(
      'post {id}/duplicate',
      `Duplicate ${w.noun}`,
      `Makes a copy of ${w.a} under a new id; its comments and history are not copied.`,
      {
        name: `duplicate${w.Noun}`,
        additive: true,
      },
    ),
  tag: (_domain, w) =>
    verb('post {id}/tags', `Tag ${w.noun}`, `Adds labels to ${w.a}; the labels it has already are kept.`, {
      name: `tag${w.Noun}`,
      body: { tags: 'string[] Labels to add, e.g. priority' },
      output: { id: `id The ${w.noun}`, tags: 'string[] All its labels now' },
      additive: true,
    }),
  attach: (_domain, w) =>
    verb(
      'post {id}/attachments',
      `Attach file to ${w.noun}`,
      `Attaches a file (by its URL) to ${w.a}; the file is copied, so the link may expire afterwards.`,
      {
        name: `attachFileTo${w.Noun}`,
        body: { fileName: 'string File name, e.g. signed-scan.pdf', url: 'url Where to fetch the file from' },
        output: attachment,
        additive: true,
      },
    ),
  attachments: (_domain, w) =>
    verb('get {id}/attachments', `List ${w.noun} attachments`, `Returns the files attached to ${w.a}, newest first.`, {
      name: `list${w.Noun}Attachments`,
      output: { items: ['The files', attachment] },
    }),
  follow: (_domain, w) =>
    verb(
      'post {id}/followers',
      `Follow ${w.noun}`,
      `Subscribes a user to notifications about ${w.a}: status changes, comments and assignments.`,
      {
        name: `follow${w.Noun}`,
        body: { userId: 'id The user to notify' },
        output: { id: `id The ${w.noun}`, followerIds: 'id[] Everyone following it now' },
        additive: true,
      },
    ),
  status: (domain, w) =>
    !domain.statuses
      ? undefined
      : verb(
          'put {id}/status',
          `Set ${w.noun} status`,
          `Moves ${w.a} to another status (${listOf([...domain.statuses])}); the reason is kept in its history.`,
          {
            name: `set${w.Noun}Status`,
            body: { status: 'status The new status', reason: 'string? Why, kept in the history' },
          },
        ),
  share: (_domain, w) =>
    verb(
      'post {id}/shares',
      `Share ${w.noun}`,
      `Gives someone, inside or outside the company, a link to ${w.a} with the permission asked for.`,
      {
        name: `share${w.Noun}`,
        body: { email: 'email Who to share it with', permission: 'enum(view|comment|edit) What they may do' },
        output: {
          id: `id The ${w.noun}`,
          sharedWith: 'email Who it is shared with',
          permission: 'enum(view|comment|edit) What they may do',
          link: 'url The link they were sent',
        },
      },
    ),
  unfollow: (_domain, w) =>
    verb('del {id}/followers/{userId}', `Unfollow ${w.noun}`, `Stops a user's notifications about ${w.a}.`, {
      name: `unfollow${w.Noun}`,
      params: { userId: 'id The user who stops following' },
    }),
};

const COMMON_KEYS = Object.keys(COMMON);

/**
 * The domain's twenty: its CRUD, its own verbs, then common verbs from the place `start` on, leaving out those it
 * skips and those whose name or route it has already.
 */
export function verbsOf(domain: Domain, w: Words, start: number): Verb[] {
  const unknown = domain.skip?.find((key) => !(key in COMMON));
  if (unknown) throw new SyntaxError(`catalogue: ${domain.key} skips ${unknown}, which is no common verb`);
  const verbs = [...crudVerbs(domain, w), ...domain.verbs];
  const taken = (candidate: Verb) =>
    verbs.some(
      (known) => known.name === candidate.name || (known.method === candidate.method && known.path === candidate.path),
    );
  for (let index = 0; index < COMMON_KEYS.length && verbs.length < PROCEDURES_PER_MODULE; index++) {
    const key = COMMON_KEYS[(start + index) % COMMON_KEYS.length];
    const candidate = domain.skip?.includes(key) ? undefined : COMMON[key](domain, w);
    if (candidate && !taken(candidate)) verbs.push(candidate);
  }
  if (verbs.length !== PROCEDURES_PER_MODULE) {
    throw new RangeError(`catalogue: ${domain.key} has ${verbs.length} procedures, not ${PROCEDURES_PER_MODULE}`);
  }
  return verbs;
}

/** How many common verbs a domain can take from (what `verbsOf` rotates over). */
export const COMMON_VERBS = COMMON_KEYS.length;
