// What a result shows, whatever it came from (an MCP content item, a resource's contents or a REST response body):
// JSON, text, image, audio, or bytes to download.
import 'client-only';
import { essenceOf, kindOf } from '../../shared/media-type.js';

export type Payload =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; mimeType: string; src: string }
  | { kind: 'binary'; mimeType: string; size: number; src?: string };

/** Text that holds a JSON object or array becomes JSON (pretty-printed when shown); anything else stays text. */
export function textPayload(text: string): Payload {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { kind: 'json', value: JSON.parse(trimmed) };
    } catch {
      // not JSON after all
    }
  }
  return { kind: 'text', text };
}

const dataUrl = (mimeType: string, base64: string) => `data:${mimeType};base64,${base64}`;

type ContentItem = { type: string; text?: unknown; data?: unknown; mimeType?: unknown };

/** An MCP content item: text (JSON detected), image or audio (base64 `data` as a data URL); others as their JSON. */
export function contentPayload(item: ContentItem): Payload {
  if (item.type === 'text' && typeof item.text === 'string') return textPayload(item.text);
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
    const mimeType = typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream';
    return { kind: item.type, mimeType, src: dataUrl(mimeType, item.data) };
  }
  return { kind: 'json', value: item };
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let start = 0; start < bytes.length; start += chunk) {
    binary += String.fromCharCode(...bytes.subarray(start, start + chunk));
  }
  return btoa(binary);
}

/** A REST response body, by its Content-Type, shown as the same kind the MCP formatter makes of it. */
export function responsePayload(contentType: string | null, bytes: Uint8Array): Payload {
  const mimeType = essenceOf(contentType);
  const kind = kindOf(mimeType);
  if (kind === 'json') return textPayload(new TextDecoder().decode(bytes));
  if (kind === 'text') return { kind, text: new TextDecoder().decode(bytes) };
  if (kind === 'image' || kind === 'audio') return { kind, mimeType, src: dataUrl(mimeType, bytesToBase64(bytes)) };
  return { kind: 'binary', mimeType, size: bytes.length };
}

/** The number of bytes `base64` holds. */
const base64Size = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.match(/=*$/)?.[0].length ?? 0);

type ResourceContent = { mimeType?: string; text?: unknown; blob?: unknown };

/**
 * One content of a resources/read result, by its MIME type: text as JSON or text, a blob as an image, audio, or bytes
 * to download (a data URL).
 */
export function resourcePayload({ mimeType = 'application/octet-stream', text, blob }: ResourceContent): Payload {
  const kind = kindOf(essenceOf(mimeType));
  if (typeof text === 'string') return kind === 'json' ? textPayload(text) : { kind: 'text', text };
  if (typeof blob !== 'string') return { kind: 'binary', mimeType, size: 0 };
  if (kind === 'image' || kind === 'audio') return { kind, mimeType, src: dataUrl(mimeType, blob) };
  return { kind: 'binary', mimeType, size: base64Size(blob), src: dataUrl(mimeType, blob) };
}
