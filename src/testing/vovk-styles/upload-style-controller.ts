// Test-only multipart procedure in the style of Vovk's form examples: a `z.file()` body, read from `req.formData()`.
import { createHash } from 'node:crypto';
import { operation, post, prefix, procedure } from 'vovk';
import { z } from 'zod';

@prefix('vovk-styles/upload')
export default class UploadStyleController {
  @operation({
    summary: 'Upload a file',
    description: 'Takes a multipart form of a file and a note; answers its name, size, type, SHA-256 and the note.',
  })
  @post('files')
  static uploadFile = procedure({
    contentType: 'multipart/form-data',
    body: z
      .object({
        file: z.file().max(1024 * 1024).meta({ description: 'Any file up to 1 MiB' }),
        note: z.string().max(200).meta({ description: 'A note about it' }),
      })
      .meta({ description: 'The form' }),
    output: z
      .object({
        name: z.string(),
        size: z.int(),
        type: z.string(),
        sha256: z.string(),
        note: z.string().nullable(),
      })
      .meta({ description: 'What arrived' }),
  }).handle(async (req) => {
    const form = await req.formData();
    const file = form.get('file') as File;
    const sha256 = createHash('sha256')
      .update(Buffer.from(await file.arrayBuffer()))
      .digest('hex');
    const note = form.get('note');
    return { name: file.name, size: file.size, type: file.type, sha256, note: typeof note === 'string' ? note : null };
  });
}
