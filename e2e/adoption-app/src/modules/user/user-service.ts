import { HttpException, HttpStatus } from 'vovk';

export interface User {
  id: number;
  name: string;
  email: string;
}

const users: User[] = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com' },
];

export default class UserService {
  static listUsers(search?: string) {
    return search ? users.filter((user) => user.name.toLowerCase().includes(search.toLowerCase())) : users;
  }

  static getUser(id: number) {
    const user = users.find((candidate) => candidate.id === id);
    if (!user) throw new HttpException(HttpStatus.NOT_FOUND, `User ${id} not found`);
    return user;
  }

  static updateUser(id: number, changes: Partial<Omit<User, 'id'>>) {
    return { ...UserService.getUser(id), ...changes };
  }
}
