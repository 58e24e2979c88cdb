// Reads users from the store; knows nothing about requests.
import { store } from '@/lib/db/store';
import { found } from '@/lib/store-errors';
import type { User } from './user-schemas';

export default class UserService {
  /** The user with this id; a 404 `HttpException` when there is none. */
  static async getUser(id: number): Promise<User> {
    return found(await store().getUser(id), `User ${id}`);
  }

  /** Every user, oldest first. */
  static listUsers(): Promise<User[]> {
    return store().listUsers();
  }
}
