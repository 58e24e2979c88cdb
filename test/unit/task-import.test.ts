// The task import's reading and checking: CSV edge cases, exactly one source, limits (413), bad rows (422), URL downloads.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ProgressUpdate, type Work, WorkCancelled } from '@gateway/long-work/current-work';
import { requestContext, runInRequestContext } from '@gateway/request-context';
import { type ImportRules, readImport } from '@/modules/task/task-import';
import { TaskImportSchema } from '@/modules/task/task-schemas';

const rules: ImportRules = {
  allowedOrigins: [],
  maxRows: 1000,
  maxBytes: 64 * 1024,
  idleTimeoutMs: 5000,
  isUser: (id) => [1, 2, 3].includes(id),
};

/** What `readImport` threw: its status, message and body fields (an HttpException's JSON). */
async function refusal(promise: Promise<unknown>): Promise<{ statusCode?: number; message: string; errors?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof Error)) throw new Error('expected the import to fail');
  const json = 'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : {};
  return { message: error.message, ...json };
}

/** Runs `read` as work whose progress is recorded and whose signal is `signal`. */
async function asWork<T>(
  read: () => Promise<T>,
  signal = new AbortController().signal,
): Promise<{ value?: T; error?: unknown; updates: ProgressUpdate[] }> {
  const updates: ProgressUpdate[] = [];
  const work: Work = { signal, progress: (update) => updates.push(update), commit: async () => undefined };
  const result = await runInRequestContext('rest', () => {
    requestContext()!.work = work;
    return read().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  });
  return { ...result, updates };
}

describe('CSV', () => {
  test('quoted fields keep commas, newlines and doubled quotes; CRLF and a BOM are fine; empty lines are skipped', async () => {
    const csv = '\uFEFFtitle,description\r\n"Buy milk, eggs","Two lines:\r\nfirst\nsecond"\r\n\r\n"Say ""hi""",plain\r\n';
    expect(await readImport({ csv }, rules)).toEqual([
      { title: 'Buy milk, eggs', description: 'Two lines:\r\nfirst\nsecond', status: 'todo', assigneeId: null },
      { title: 'Say "hi"', description: 'plain', status: 'todo', assigneeId: null },
    ]);
  });

  test('columns in any order; an empty cell leaves its field out (the default applies); assigneeId is read as a number', async () => {
    const csv = 'assigneeId,status,title,description\n2,done,First,\n,,Second,Some text\n';
    expect(await readImport({ csv }, rules)).toEqual([
      { title: 'First', description: '', status: 'done', assigneeId: 2 },
      { title: 'Second', description: 'Some text', status: 'todo', assigneeId: null },
    ]);
  });

  test('a header alone imports nothing; only the title column is required', async () => {
    expect(await readImport({ csv: 'title\r\n' }, rules)).toEqual([]);
    expect(await readImport({ csv: 'title\nOnly a title' }, rules)).toEqual([
      { title: 'Only a title', description: '', status: 'todo', assigneeId: null },
    ]);
  });

  test.each([
    ['an unknown column, named', 'title,priority\nA,high\n', /Unknown CSV column "priority"/],
    ['no title column', 'description,status\nx,todo\n', /no title column/],
    ['a column named twice', 'title,title\nA,B\n', /"title" is named twice/],
    ['no header at all', '', /CSV is empty/],
    ['an unclosed quote', 'title\n"never closed\n', /malformed.*Quote Not Closed/],
  ])('%s → 422', async (_name, csv, message) => {
    expect(await refusal(readImport({ csv }, rules))).toMatchObject({ statusCode: 422, message: expect.stringMatching(message) });
  });

  test('a row with more or fewer fields than the header is a bad row, with its data-row number (header not counted)', async () => {
    const csv = 'title,status\nGood,todo\nShort\n\nGood again,done\nLong,todo,extra\n';
    expect(await refusal(readImport({ csv }, rules))).toEqual({
      isError: true,
      statusCode: 422,
      message: '2 rows are not valid tasks (errors says why); nothing was imported',
      errors: [
        { row: 2, reason: 'expected 2 fields, as many as the header names, got 1' },
        { row: 4, reason: 'expected 2 fields, as many as the header names, got 3' },
      ],
    });
  });
});

describe('rows and their checks', () => {
  test('rows are checked with createTask’s rules; every bad row is listed by number, unknown assignees too', async () => {
    const rows = [
      { title: 'Fine' },
      { title: '' },
      { title: 'Wrong column', status: 'archived' },
      { title: 'Nobody', assigneeId: 42 },
      'not an object',
      { title: 'Stray field', priority: 1 },
    ];
    const { statusCode, message, errors } = await refusal(readImport({ rows }, rules));
    expect(statusCode).toBe(422);
    expect(message).toBe('5 rows are not valid tasks (errors says why); nothing was imported');
    expect(errors).toEqual([
      { row: 2, reason: expect.stringMatching(/^title: Too small/) },
      { row: 3, reason: expect.stringMatching(/^status: Invalid option/) },
      { row: 4, reason: 'assigneeId: user 42 does not exist' },
      { row: 5, reason: expect.stringMatching(/expected object/) },
      { row: 6, reason: expect.stringMatching(/Unrecognized key: "priority"/) },
    ]);
  });

  test('CSV cells get the same checks as JSON rows', async () => {
    const csv = 'title,status,assigneeId\nOK,todo,1\nBad status,later,\nNo such user,,9\nNot a number,,two\n';
    const { errors } = await refusal(readImport({ csv }, rules));
    expect(errors).toEqual([
      { row: 2, reason: expect.stringMatching(/^status: Invalid option/) },
      { row: 3, reason: 'assigneeId: user 9 does not exist' },
      { row: 4, reason: expect.stringMatching(/^assigneeId: Invalid input: expected number/) },
    ]);
  });

  test('a 422 lists at most the first 100 bad rows and says how many there are', async () => {
    const rows = Array.from({ length: 250 }, (_, index) => ({ title: index % 2 ? `Row ${index + 1}` : '' }));
    const { message, errors } = await refusal(readImport({ rows }, rules));
    expect(message).toBe('125 rows are not valid tasks (errors lists the first 100); nothing was imported');
    expect((errors as { row: number }[]).map((error) => error.row)).toEqual(Array.from({ length: 100 }, (_, index) => 2 * index + 1));
  });

  test('one bad row is named in the message', async () => {
    expect((await refusal(readImport({ rows: [{ title: 'A' }, { title: ' ' }] }, rules))).message).toBe(
      'Row 2 is not a valid task (errors says why); nothing was imported',
    );
  });
});

describe('exactly one source', () => {
  test.each([
    [{}, 'got none'],
    [{ rows: [], csv: 'title' }, 'got rows and csv'],
    [{ csv: 'title', url: 'http://127.0.0.1/x.csv' }, 'got csv and url'],
  ])('%j is refused: %s', (body, given) => {
    const parsed = TaskImportSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(`Give exactly one of rows, csv or url: ${given}`);
  });

  test('one of them is accepted, and a row is checked only by the import', () => {
    for (const body of [{ rows: [{ title: '' }, 7] }, { csv: '' }, { url: 'not even a URL' }]) {
      expect(TaskImportSchema.safeParse(body).success).toBe(true);
    }
  });
});

describe('limits → 413', () => {
  test('more rows than IMPORT_MAX_ROWS, as JSON or CSV', async () => {
    const small = { ...rules, maxRows: 3 };
    expect(await refusal(readImport({ rows: Array.from({ length: 4 }, () => ({ title: 'x' })) }, small))).toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/at most 3 rows \(IMPORT_MAX_ROWS\)/),
    });
    expect(await refusal(readImport({ csv: 'title\na\nb\nc\nd\n' }, small))).toMatchObject({ statusCode: 413 });
    expect(await readImport({ csv: 'title\na\nb\nc\n' }, small)).toHaveLength(3);
  });

  test('more CSV bytes than IMPORT_MAX_BYTES', async () => {
    const csv = `title\n${'x'.repeat(100)}\n`;
    expect(await refusal(readImport({ csv }, { ...rules, maxBytes: 100 }))).toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/at most 100 bytes \(IMPORT_MAX_BYTES\)/),
    });
  });
});

describe('progress and cancellation', () => {
  test('rows done with their total, and for CSV the bytes read; done never goes back', async () => {
    const rows = Array.from({ length: 2500 }, (_, index) => ({ title: `T${index}` }));
    const { updates } = await asWork(() => readImport({ rows }, { ...rules, maxRows: 5000 }));
    expect(updates.at(-1)).toEqual({ done: 2500, total: 2500, message: '2,500 rows' });
    expect(updates.map((update) => update.done)).toEqual([...updates.map((update) => update.done)].sort((a, b) => a - b));
    const csv = `title\n${rows.map((row) => row.title).join('\n')}\n`;
    const { updates: csvUpdates } = await asWork(() => readImport({ csv }, { ...rules, maxRows: 5000 }));
    expect(Buffer.byteLength(csv)).toBe(13_896);
    expect(csvUpdates.at(-1)).toEqual({ done: 2500, total: 2500, message: '2,500 rows, 13.6 KiB read' });
  });

  test('an aborted work signal stops the reading with WorkCancelled', async () => {
    const rows = Array.from({ length: 2500 }, () => ({ title: 'T' }));
    const { error } = await asWork(() => readImport({ rows }, { ...rules, maxRows: 5000 }), AbortSignal.abort('stop'));
    expect(error).toBeInstanceOf(WorkCancelled);
    expect((error as Error).message).toBe('stop');
  });
});

describe('url', () => {
  type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const routes = new Map<string, Route>();
  /** Paths asked for, and whether each answer was cut short by the client. */
  const requests: string[] = [];
  const closedEarly: string[] = [];
  let server: http.Server;
  let origin: string;
  let allowed: ImportRules;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url!);
      res.on('close', () => !res.writableFinished && closedEarly.push(req.url!));
      const route = routes.get(req.url!);
      if (route) route(req, res);
      else res.writeHead(404).end('no such file');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    allowed = { ...rules, allowedOrigins: [origin], idleTimeoutMs: 300 };
    routes.set('/tasks.csv', (_req, res) => res.writeHead(200, { 'Content-Type': 'text/csv' }).end('title,status\nFrom a URL,done\n'));
    routes.set('/moved', (_req, res) => res.writeHead(302, { Location: '/tasks.csv' }).end());
    routes.set('/away', (_req, res) => res.writeHead(302, { Location: origin.replace('127.0.0.1', 'localhost') + '/tasks.csv' }).end());
    routes.set('/loop', (_req, res) => res.writeHead(307, { Location: '/loop' }).end());
    routes.set('/stalls', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.write('title\nFirst\n'); // … and nothing more, never ending
    });
    routes.set('/slow-start', (_req, res) => setTimeout(() => res.writeHead(200).end('title\nLate\n'), 1000));
    routes.set('/endless', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.write('title\n');
      const more = () => {
        while (res.write('another row\n'.repeat(100)));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    routes.set('/declared-large', (_req, res) => res.writeHead(200, { 'Content-Length': String(10 * 1024 * 1024) }).write('title\n'));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('an allowed origin (loopback too) is read, a redirect within allowed origins followed', async () => {
    const expected = [{ title: 'From a URL', description: '', status: 'done', assigneeId: null }];
    expect(await readImport({ url: `${origin}/tasks.csv` }, allowed)).toEqual(expected);
    expect(await readImport({ url: `${origin}/moved` }, allowed)).toEqual(expected);
  });

  test('an origin not in IMPORT_ALLOWED_ORIGINS → 400 naming it, and nothing is fetched', async () => {
    const before = requests.length;
    for (const [rulesUsed, url] of [
      [rules, `${origin}/tasks.csv`],
      [allowed, `${origin.replace('127.0.0.1', 'localhost')}/tasks.csv`],
      [allowed, 'http://169.254.169.254/latest/meta-data'],
    ] as const) {
      expect(await refusal(readImport({ url }, rulesUsed))).toMatchObject({
        statusCode: 400,
        message: expect.stringMatching(/is not allowed: its origin is not listed in IMPORT_ALLOWED_ORIGINS/),
      });
    }
    expect(await refusal(readImport({ url: 'file:///etc/passwd' }, allowed))).toMatchObject({
      statusCode: 400,
      message: 'The CSV URL file:///etc/passwd is not an http(s) URL',
    });
    expect(requests.length).toBe(before);
  });

  test('a redirect to an unlisted origin is refused (400), too many redirects are a 502', async () => {
    expect(await refusal(readImport({ url: `${origin}/away` }, allowed))).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^The CSV URL redirects to http:\/\/localhost:\d+, which is not allowed: .*IMPORT_ALLOWED_ORIGINS/),
    });
    expect(requests.filter((path) => path === '/tasks.csv').length).toBeGreaterThan(0);
    const before = requests.filter((path) => path === '/loop').length;
    expect(await refusal(readImport({ url: `${origin}/loop` }, allowed))).toMatchObject({
      statusCode: 502,
      message: 'The CSV URL redirected more than 5 times: nothing was imported',
    });
    expect(requests.filter((path) => path === '/loop').length - before).toBe(6);
  });

  test('a non-2xx answer → 502 naming its status', async () => {
    expect(await refusal(readImport({ url: `${origin}/missing.csv` }, allowed))).toMatchObject({
      statusCode: 502,
      message: 'The CSV URL answered HTTP 404 Not Found: nothing was imported',
    });
  });

  test('an allowed origin where nothing listens → 502 naming the URL and the reason', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/tasks.csv`;
    await new Promise((resolve) => closed.close(resolve));
    expect(await refusal(readImport({ url }, { ...rules, allowedOrigins: [new URL(url).origin] }))).toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(new RegExp(`^Could not fetch ${url}: connect ECONNREFUSED`)),
    });
  });

  test('no bytes for IMPORT_IDLE_TIMEOUT_MS → 504, whether before the answer or in the middle of the body', async () => {
    for (const path of ['/stalls', '/slow-start']) {
      const started = performance.now();
      expect(await refusal(readImport({ url: `${origin}${path}` }, allowed))).toMatchObject({
        statusCode: 504,
        message: `${origin} sent nothing for 300 ms (IMPORT_IDLE_TIMEOUT_MS): the import stopped, nothing was imported`,
      });
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  test('a slow download that keeps sending is not cut by the idle timeout', async () => {
    routes.set('/trickle', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      const lines = ['title\n', 'One\n', 'Two\n', 'Three\n'];
      const next = () => (lines.length ? (res.write(lines.shift()), setTimeout(next, 200)) : res.end());
      next();
    });
    expect(await readImport({ url: `${origin}/trickle` }, allowed)).toHaveLength(3);
  });

  test('a cancel while the download waits for bytes stops it at once with WorkCancelled', async () => {
    const cancel = new AbortController();
    setTimeout(() => cancel.abort('changed my mind'), 100);
    const started = performance.now();
    const { error } = await asWork(() => readImport({ url: `${origin}/stalls` }, { ...allowed, idleTimeoutMs: 5000 }), cancel.signal);
    expect(error).toBeInstanceOf(WorkCancelled);
    expect(performance.now() - started).toBeLessThan(1000);
    await expect.poll(() => closedEarly.includes('/stalls')).toBe(true);
  });

  test('past IMPORT_MAX_ROWS or IMPORT_MAX_BYTES → 413, and the download is read no further', async () => {
    expect(await refusal(readImport({ url: `${origin}/endless` }, { ...allowed, maxBytes: 10 * 1024 * 1024 }))).toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/IMPORT_MAX_ROWS/),
    });
    expect(await refusal(readImport({ url: `${origin}/endless` }, { ...allowed, maxRows: 1_000_000 }))).toMatchObject({
      statusCode: 413,
      message: expect.stringMatching(/IMPORT_MAX_BYTES/),
    });
    expect(await refusal(readImport({ url: `${origin}/declared-large` }, allowed))).toMatchObject({ statusCode: 413 });
    await expect.poll(() => closedEarly.filter((path) => path === '/endless').length).toBe(2);
    await expect.poll(() => closedEarly.includes('/declared-large')).toBe(true);
  });

  test('a refused download is closed at once, even while it waits for more bytes', async () => {
    routes.set('/rows-then-silence', (_req, res) => res.writeHead(200).write('title\na\nb\nc\nd\ne\nf\n'));
    const url = `${origin}/rows-then-silence`;
    expect(await refusal(readImport({ url }, { ...allowed, maxRows: 3, idleTimeoutMs: 10_000 }))).toMatchObject({ statusCode: 413 });
    await expect.poll(() => closedEarly.includes('/rows-then-silence'), { timeout: 1000 }).toBe(true);
  });
});
