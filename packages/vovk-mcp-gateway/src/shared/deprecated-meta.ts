// What a call of a deprecated tool name says in its result `_meta`; shared by the MCP door and the browser explorer.

/** Result `_meta` key of a call made by an old name of a tool (an alias): which name was called, and which to use. */
export const DEPRECATED_META_KEY = 'dev.vovk/deprecated';

/** The value under {@link DEPRECATED_META_KEY}: `alias` answered as the tool `use`, which callers should name instead. */
export interface DeprecatedName {
  alias: string;
  use: string;
}
