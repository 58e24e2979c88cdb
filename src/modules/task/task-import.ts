// Reads the rows of a task import — JSON rows, CSV text or a CSV URL — and checks every one, reporting progress.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type CsvError, parse } from 'csv-parse';
import { HttpException, HttpStatus } from 'vovk';
import type { z } from 'zod';
import { DetailedHttpException, reportProgress, WorkCancelled, workSignal } from 'vovk-mcp-gateway';
import type { NewTask } from '@/lib/store';
import { type DownloadLimits, downloadCsv, overLimit } from './task-import-download';
import { NewTaskSchema, type TaskImport } from './task-schemas';

/** The bounds of one import and who may be assigned. */
export interface ImportRules extends DownloadLimits {
  /** Most rows (IMPORT_MAX_ROWS). */
  maxRows: number;
  /** Whether a user with this id exists. */
  isUser: (id: number) => boolean;
}

/** A row that is not a valid task: its 1-based number among the data rows (a CSV header not counted), and why. */
interface RowError {
  row: number;
  reason: string;
}

/** The columns a CSV header may name (title is required). */
const CSV_COLUMNS = ['title', 'description', 'status', 'assigneeId'];
/** How many bad rows a 422 lists (its message says how many there are in all). */
const LISTED_ERRORS = 100;
/** Progress is reported, cancellation looked at and the event loop let go every so many rows. */
const STEP_ROWS = 1000;

const unprocessable = (message: string) => new HttpException(HttpStatus.UNPROCESSABLE_ENTITY, message);

/** `1.4 MiB`, `12.0 KiB`, `300 B`. */
function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} B`;
}

/** Why zod refused a row, in one line: `title: Too small…; status: Invalid option…`. */
function reasonOf(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Collects the checked rows of one import, its bad rows, and reports how far it has got. */
class ImportCheck {
  private readonly tasks: NewTask[] = [];
  private readonly errors: RowError[] = [];
  /** Rows seen (the highest row number admitted), and rows done: checked, or refused by the CSV parser. */
  private seen = 0;
  private done = 0;
  /** Rows in all, once known. */
  total?: number;
  /** Bytes of CSV read so far (CSV imports only). */
  bytes?: number;

  constructor(private readonly rules: ImportRules) {}

  /** Rows up to `row` are part of the import; 413 past IMPORT_MAX_ROWS. */
  admit(row: number): void {
    if (row > this.rules.maxRows) throw overLimit('rows', this.rules.maxRows, 'IMPORT_MAX_ROWS');
    this.seen = Math.max(this.seen, row);
  }

  /** Checks row `row` with NewTaskSchema's rules and that its assignee exists; steps on every STEP_ROWS rows. */
  async check(row: number, value: unknown): Promise<void> {
    const parsed = NewTaskSchema.safeParse(value);
    if (!parsed.success) this.refuse(row, reasonOf(parsed.error));
    else if (parsed.data.assigneeId !== null && !this.rules.isUser(parsed.data.assigneeId)) {
      this.refuse(row, `assigneeId: user ${parsed.data.assigneeId} does not exist`);
    } else {
      this.tasks.push(parsed.data);
      this.done++;
    }
    if (this.done % STEP_ROWS === 0) await this.step();
  }

  /** Row `row` is bad, for `reason`; it counts as done. */
  refuse(row: number, reason: string): void {
    this.errors.push({ row, reason });
    this.done++;
  }

  /** Reports progress, gives other work a turn (a cancel among it), and stops here if the import was cancelled. */
  async step(): Promise<void> {
    const read = this.bytes === undefined ? '' : `, ${byteSize(this.bytes)} read`;
    reportProgress({ done: this.done, total: this.total, message: `${this.done.toLocaleString('en-US')} rows${read}` });
    await nextTurn();
    const signal = workSignal();
    if (signal.aborted) throw new WorkCancelled(signal.reason);
  }

  /** Every row was seen: now the total is known. */
  complete(): void {
    this.total = this.seen;
  }

  /** The tasks of every row, in order, once all were checked; a 422 listing the bad rows when there are any. */
  async result(): Promise<NewTask[]> {
    this.complete();
    await this.step();
    if (!this.errors.length) return this.tasks;
    const count = this.errors.length;
    const errors = this.errors.sort((a, b) => a.row - b.row).slice(0, LISTED_ERRORS);
    const listed = count > errors.length ? `errors lists the first ${errors.length}` : 'errors says why';
    const rows = count === 1 ? `Row ${errors[0].row} is not a valid task` : `${count.toLocaleString('en-US')} rows are not valid tasks`;
    const message = `${rows} (${listed}); nothing was imported`;
    throw new DetailedHttpException(HttpStatus.UNPROCESSABLE_ENTITY, message, { errors });
  }
}

/** The header's column names, checked: known names, each once, title among them (422 otherwise). */
function csvColumns(header: string[]): string[] {
  const names = header.map((name) => name.trim());
  const unknown = names.filter((name) => !CSV_COLUMNS.includes(name));
  if (unknown.length) {
    const quoted = unknown.map((name) => JSON.stringify(name)).join(', ');
    const known = CSV_COLUMNS.join(', ');
    throw unprocessable(`Unknown CSV column${unknown.length > 1 ? 's' : ''} ${quoted}: the columns are ${known}`);
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw unprocessable(`The CSV column "${repeated}" is named twice in the header`);
  if (!names.includes('title')) throw unprocessable(`The CSV header has no title column: it names ${names.join(', ')}`);
  return names;
}

/** A CSV data row: its cells by column name. */
type CsvRecord = Record<string, string>;
/** A CSV data row and its 1-based number among the data rows. */
type NumberedRecord = { row: number; record: CsvRecord };

/** A CSV record as a row to check: empty cells left out, an assigneeId of digits read as a number. */
function rowOfRecord(record: CsvRecord): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [column, cell] of Object.entries(record)) {
    if (cell === '') continue;
    row[column] = column === 'assigneeId' && /^\s*\d+\s*$/.test(cell) ? Number(cell) : cell;
  }
  return row;
}

/**
 * Parses CSV from `chunks` with csv-parse (RFC 4180: quoted fields, LF or CRLF, a UTF-8 BOM; fully empty lines
 * skipped), handing `onRecord` each data row with its number. A row with more or fewer fields than the header is a bad
 * row of `check`; a header with unknown columns, no title or no header at all, and any other malformed CSV are 422.
 */
async function parseCsv(
  chunks: AsyncIterable<Uint8Array> | Iterable<string>,
  check: ImportCheck,
  onRecord: (row: number, record: CsvRecord) => void | Promise<void>,
): Promise<void> {
  let rows = 0;
  let header = false;
  const parser = parse({
    bom: true,
    columns: (names: string[]) => ((header = true), csvColumns(names)),
    relax_column_count: false,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      check.admit(++rows);
      if (error?.code !== 'CSV_RECORD_INCONSISTENT_COLUMNS') {
        throw unprocessable(`The CSV is malformed (row ${rows}): ${error?.message}`);
      }
      const { record, columns } = error as CsvError & { record: unknown[]; columns: unknown[] };
      check.refuse(rows, `expected ${columns.length} fields, as many as the header names, got ${record.length}`);
      return undefined;
    },
    on_record: (record: CsvRecord): NumberedRecord => {
      check.admit(++rows);
      return { row: rows, record };
    },
  });
  const feeding = pipeline(Readable.from(chunks), parser);
  // A failure of the source or the parser reaches the loop below through the parser; this promise's own is the same.
  feeding.catch(() => undefined);
  for await (const { row, record } of parser as AsyncIterable<NumberedRecord>) await onRecord(row, record);
  await feeding;
  if (!header) throw unprocessable(`The CSV is empty: its first line must name the columns (${CSV_COLUMNS.join(', ')})`);
}

/**
 * The tasks of an import, every row checked with NewTaskSchema's rules (and its assignee against `rules.isUser`), in
 * order: from `rows`, from the `csv` text, or streamed from the CSV at `url`. Throws a 422 `{ errors: [{ row, reason }] }`
 * for bad rows (all of them counted, the first 100 listed), 422 for a malformed CSV or header, 413 past
 * IMPORT_MAX_ROWS or IMPORT_MAX_BYTES (a download stops there), the download's 400, 502 and 504, and WorkCancelled once
 * the work is cancelled. Reports progress in rows (`total` when known) and bytes read.
 */
export async function readImport(source: TaskImport, rules: ImportRules): Promise<NewTask[]> {
  const check = new ImportCheck(rules);
  if (source.rows) {
    check.admit(source.rows.length);
    check.total = source.rows.length;
    for (const [index, row] of source.rows.entries()) await check.check(index + 1, row);
  } else if (source.csv !== undefined) {
    check.bytes = Buffer.byteLength(source.csv);
    if (check.bytes > rules.maxBytes) throw overLimit('bytes', rules.maxBytes, 'IMPORT_MAX_BYTES');
    // The text is all here: parsed first, so that progress knows the total.
    const records: NumberedRecord[] = [];
    await parseCsv([source.csv], check, (row, record) => void records.push({ row, record }));
    check.complete();
    for (const { row, record } of records) await check.check(row, rowOfRecord(record));
  } else if (source.url !== undefined) {
    check.bytes = 0;
    // Once reading stops (done, refused, cancelled), so does the download, even while it waits for bytes.
    const stop = new AbortController();
    const cancel = AbortSignal.any([workSignal(), stop.signal]);
    const chunks = downloadCsv(source.url, rules, cancel, (bytes) => (check.bytes = bytes));
    await parseCsv(chunks, check, (row, record) => check.check(row, rowOfRecord(record))).finally(() => stop.abort());
  }
  return check.result();
}
