// Classifies a Content-Type header into the kind of MCP content it becomes (JSON, text, image, audio or unsupported).

/** What the formatter does with a response body of a given media type. */
export type MediaKind = 'json' | 'text' | 'image' | 'audio' | 'unsupported';

/** Media types that are text even though they are not `text/*`. */
const TEXT_APPLICATION_TYPES = new Set([
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/csv',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/x-ndjson',
  'application/jsonl',
  'application/x-www-form-urlencoded',
]);

/** Structured-syntax suffixes (RFC 6839) whose bodies are text. */
const TEXT_SUFFIXES = ['+xml', '+yaml'];

/**
 * The essence of a Content-Type header: type/subtype, lower-cased, without parameters.
 * A missing header reads as `application/octet-stream` (RFC 9110 §8.3).
 */
export function essenceOf(contentType: string | null | undefined): string {
  const essence = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return essence || 'application/octet-stream';
}

/** Which MCP content kind a media type essence maps to. */
export function kindOf(essence: string): MediaKind {
  if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
  if (essence.startsWith('image/')) return 'image';
  if (essence.startsWith('audio/')) return 'audio';
  if (essence.startsWith('text/') || TEXT_APPLICATION_TYPES.has(essence)) return 'text';
  if (TEXT_SUFFIXES.some((suffix) => essence.endsWith(suffix))) return 'text';
  return 'unsupported';
}
