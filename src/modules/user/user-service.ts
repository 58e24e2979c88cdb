// Users of the store: read, create, update, delete (their tasks stay, unassigned); knows nothing about requests.
import { type DeletedUser, type NewUser, type Page, store, type UserChanges } from '@/lib/store';
import { found, refusalsAsHttp } from '@/lib/store-errors';
import type { User } from './user-schemas';

export default class UserService {
  /** The user with this id; a 404 `HttpException` when there is none. */
  static async getUser(id: number): Promise<User> {
    return found(await store().getUser(id), `User ${id}`);
  }

  /** The users, oldest first (every one, or the window `page` names). */
  static listUsers(page: Page = {}): Promise<User[]> {
    return store().listUsers(page);
  }

  /** Adds a user; 409 when the email is taken. */
  static createUser(user: NewUser): Promise<User> {
    return refusalsAsHttp(store().createUser(user));
  }

  /** Changes a user's name, email or role; 404 when there is no such user, 409 when the email is taken. */
  static async updateUser(id: number, changes: UserChanges): Promise<User> {
    return found(await refusalsAsHttp(store().updateUser(id, changes)), `User ${id}`);
  }

  /** Deletes a user and unassigns their tasks; 404 when there is no such user. */
  static async deleteUser(id: number): Promise<DeletedUser> {
    return found(await store().deleteUser(id), `User ${id}`);
  }
}
