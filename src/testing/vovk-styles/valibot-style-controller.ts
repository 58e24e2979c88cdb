// Test-only procedure whose schemas are valibot's (JSON Schema by @valibot/to-json-schema), as Vovk's docs show.
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { operation, post, prefix, procedure } from 'vovk';

const notification = v.pipe(v.picklist(['email', 'push', 'none']), v.description('Notification type'));

@prefix('vovk-styles/valibot')
export default class ValibotStyleController {
  @operation({ summary: 'Update user (valibot)', description: 'Updates a user by id, with valibot validation.' })
  @post('users/{id}')
  static updateUser = procedure({
    body: toStandardJsonSchema(
      v.pipe(
        v.object({
          name: v.pipe(v.string(), v.minLength(2), v.description('Full name')),
          age: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(120), v.description('Age in years')),
          email: v.pipe(v.string(), v.email(), v.description('Email address')),
        }),
        v.description('The user'),
      ),
    ),
    params: toStandardJsonSchema(v.object({ id: v.pipe(v.string(), v.uuid(), v.description('User id')) })),
    query: toStandardJsonSchema(v.object({ notify: notification })),
    output: toStandardJsonSchema(
      v.pipe(
        v.object({
          success: v.pipe(v.boolean(), v.description('Whether it worked')),
          id: v.pipe(v.string(), v.uuid()),
          name: v.string(),
          notify: notification,
        }),
        v.description('What was updated'),
      ),
    ),
  }).handle(async (req, { id }) => {
    const { name } = await req.json();
    const notify = req.nextUrl.searchParams.get('notify') as 'email' | 'push' | 'none';
    return { success: true, id, name, notify };
  });
}
