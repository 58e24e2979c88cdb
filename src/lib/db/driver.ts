// What a SQL backend gives the store: migrations, serialized transactions with `?` placeholders, and a change feed.

/** Runs one statement inside a transaction; `?` marks each positional parameter. Rows come back as plain objects. */
export type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

export interface SqlDriver {
  /** Applies the migrations this database has not had yet (safe when several instances start at once). */
  migrate(): Promise<void>;
  /** Runs `work` in a read transaction: one consistent view of the data. */
  read<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction, one at a time across every process sharing the database, so that
   * read-then-write steps (positions, existence checks) never interleave. Rolled back when `work` throws.
   */
  write<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Calls `listener` after data changed, by this process or by any other one sharing the database. */
  onChange(listener: () => void): () => void;
  /** Whether `error` means the database cannot be reached now (down, unreachable, timed out), so try again later. */
  isUnreachable(error: unknown): boolean;
  close(): Promise<void>;
}

/** The listeners of a driver's change feed; one that throws is logged and does not stop the others. */
export class ChangeFeed {
  private readonly listeners = new Set<() => void>();

  get size(): number {
    return this.listeners.size;
  }

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        console.error('A store change listener failed:', error);
      }
    }
  }
}
