// Test-only procedure whose schemas are arktype's (Standard Schema with its own JSON Schema), as Vovk's docs show.
import { type } from 'arktype';
import { operation, post, prefix, procedure } from 'vovk';

const notification = type('"email" | "push" | "none"').describe('Notification type');

@prefix('vovk-styles/arktype')
export default class ArktypeStyleController {
  @operation({ summary: 'Update user (arktype)', description: 'Updates a user by id, with arktype validation.' })
  @post('users/{id}')
  static updateUser = procedure({
    body: type({
      name: type('string >= 2').describe('Full name'),
      age: type('0 <= number.integer <= 120').describe('Age in years'),
      email: type('string.email').describe('Email address'),
    }).describe('The user'),
    params: type({ id: type('string.uuid').describe('User id') }),
    query: type({ notify: notification }),
    output: type({
      success: type('boolean').describe('Whether it worked'),
      id: 'string.uuid',
      name: 'string',
      notify: notification,
    }).describe('What was updated'),
  }).handle(async (req, { id }) => {
    const { name } = await req.json();
    const notify = req.nextUrl.searchParams.get('notify');
    return { success: true, id, name, notify };
  });
}
