// Reads users from the embedded store; knows nothing about requests.
import { HttpException, HttpStatus } from 'vovk';
import { db } from '@/lib/db/sqlite';
import type { User } from './user-schemas';

type UserRow = { id: number; name: string; email: string; role: User['role']; created_at: string };

const toUser = ({ created_at, ...row }: UserRow): User => ({ ...row, createdAt: created_at });

export default class UserService {
  /** The user with this id; a 404 `HttpException` when there is none. */
  static getUser(id: number): User {
    const row = db().prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    if (!row) throw new HttpException(HttpStatus.NOT_FOUND, `User ${id} not found`);
    return toUser(row);
  }

  /** Every user, oldest first. */
  static listUsers(): User[] {
    return (db().prepare('SELECT * FROM users ORDER BY id').all() as UserRow[]).map(toUser);
  }
}
