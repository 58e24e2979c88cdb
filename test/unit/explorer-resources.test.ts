// Unit tests of the explorer's Resources view: what a resource's contents show as, a template's variables and URI.
import { describe, expect, test } from 'vitest';
import { resourcePayload } from '@gateway/browser/explorer/payload';
import { expandTemplate, templateVariables } from '@gateway/browser/explorer/uri-templates';

describe('a resource’s contents', () => {
  test('JSON text is JSON, other text stays text, whatever it looks like', () => {
    expect(resourcePayload({ mimeType: 'application/json', text: '{"columns":[]}' })).toEqual({ kind: 'json', value: { columns: [] } });
    expect(resourcePayload({ mimeType: 'text/html;profile=mcp-app', text: '<!doctype html>' })).toEqual({ kind: 'text', text: '<!doctype html>' });
    expect(resourcePayload({ mimeType: 'text/plain', text: '[not json' })).toEqual({ kind: 'text', text: '[not json' });
  });

  test('a blob is an image or audio by its type, else bytes to download, with their size', () => {
    expect(resourcePayload({ mimeType: 'image/png', blob: 'iVBORw==' })).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      src: 'data:image/png;base64,iVBORw==',
    });
    expect(resourcePayload({ mimeType: 'audio/mpeg', blob: 'SUQz' })).toMatchObject({ kind: 'audio', src: 'data:audio/mpeg;base64,SUQz' });
    expect(resourcePayload({ mimeType: 'application/pdf', blob: 'JVBERi0=' })).toEqual({
      kind: 'binary',
      mimeType: 'application/pdf',
      size: 5,
      src: 'data:application/pdf;base64,JVBERi0=',
    });
    expect(resourcePayload({ blob: 'AAAA' })).toMatchObject({ kind: 'binary', mimeType: 'application/octet-stream', size: 3 });
  });
});

describe('resource templates', () => {
  test('the variables, in order, each once', () => {
    expect(templateVariables('vovk://gateway/api/tasks/{id}')).toEqual(['id']);
    expect(templateVariables('vovk://gateway/api/tasks{?status,assigneeId}')).toEqual(['status', 'assigneeId']);
    expect(templateVariables('x://{a}/{+path}/{a}')).toEqual(['a', 'path']);
    expect(templateVariables('vovk://gateway/api/board')).toEqual([]);
  });

  test('the URI of the values given: encoded, a query of the ones given, nothing for one left out', () => {
    expect(expandTemplate('vovk://gateway/api/tasks/{id}', { id: '7' })).toBe('vovk://gateway/api/tasks/7');
    expect(expandTemplate('x://api/users/{name}', { name: 'a b/c' })).toBe('x://api/users/a%20b%2Fc');
    expect(expandTemplate('x://files/{+path}', { path: 'a b/c' })).toBe('x://files/a%20b/c');
    expect(expandTemplate('x://tasks{?status,assigneeId}', { assigneeId: '2' })).toBe('x://tasks?assigneeId=2');
    expect(expandTemplate('x://tasks{?status}', {})).toBe('x://tasks');
  });
});
