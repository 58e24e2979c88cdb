// How long readers may keep the demo's resources (`@resource({ ttlMs })`): its data a few seconds, its fixed texts and media an hour.

/** The board, tasks and users change as people work: a few seconds stale at most (a subscriber hears of each change). */
export const DATA_TTL_MS = 5_000;

/** The greeting, the feed, the PNG and the MP3 change only with a deploy. */
export const STATIC_TTL_MS = 3_600_000;
