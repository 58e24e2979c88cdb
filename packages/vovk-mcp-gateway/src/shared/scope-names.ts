// The gateway's OAuth scope names: constants only, so that the browser pages can import them too.

/** Read: procedures served by GET (and HEAD), read-only standalone tools. */
export const READ_SCOPE = 'gateway:read';
/** Write: every other HTTP method. */
export const WRITE_SCOPE = 'gateway:write';
/** Admin: declared by the procedures that need it, on top of their method's scope. */
export const ADMIN_SCOPE = 'gateway:admin';
export const ALL_SCOPES = [READ_SCOPE, WRITE_SCOPE, ADMIN_SCOPE] as const;
