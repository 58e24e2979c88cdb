// Words of a POSIX shell command line, quoted only where the shell would change them (the settings and curl lines).

/** `text` in single quotes, safe for any POSIX shell whatever it holds. */
export const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Characters a shell word may hold unquoted: a plain URL or option stays as it is; `&`, `?`, spaces… are quoted. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** `text` as one shell word: as it is when the shell leaves it alone, else quoted. */
export const shellWord = (text: string) => (PLAIN_WORD.test(text) ? text : shellQuote(text));
