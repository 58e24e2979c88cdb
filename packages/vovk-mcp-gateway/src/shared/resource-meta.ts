// How the gateway's procedure resources are named, for the server and for the pages that list them.

/** Every procedure resource's URI starts so; its path is the procedure's REST path. */
const RESOURCE_URI_BASE = 'vovk://gateway';

/** `_meta` key of a listed resource (and template) naming the tool whose procedure it reads. */
export const RESOURCE_TOOL_META_KEY = 'dev.vovk/tool';

/** The URI (template) of the procedure at REST `path`: `/api/tasks/{id}` → `vovk://gateway/api/tasks/{id}`. */
export const resourceUriOf = (path: string) => `${RESOURCE_URI_BASE}${path}`;
