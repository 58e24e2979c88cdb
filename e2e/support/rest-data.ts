// Data a spec creates for itself over REST (tasks, users), and what REST says of it afterwards.
import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';

export type Task = {
  id: number;
  title: string;
  description: string;
  status: string;
  position: number;
  assigneeId: number | null;
};
export type User = { id: number; name: string; email: string; role: string; createdAt: string };

async function post<T>(baseURL: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(baseURL + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `POST ${path}`).toBe(200);
  return response.json() as Promise<T>;
}

/**
 * A new task (in the todo column unless `fields` say otherwise); `title` gets a unique suffix so that tests running at
 * once tell theirs apart.
 */
export const createTask = (
  baseURL: string,
  title: string,
  fields: Partial<Pick<Task, 'description' | 'status' | 'assigneeId'>> = {},
) => post<Task>(baseURL, '/api/tasks', { ...fields, title: `${title} ${randomUUID().slice(0, 8)}` });

/** A new member with a unique email address. */
export const createUser = (baseURL: string, name: string) =>
  post<User>(baseURL, '/api/users', { name, email: `${randomUUID()}@example.com` });

/** The HTTP status of a REST GET: 200 while the thing exists, 404 once it is gone. */
export const restStatus = async (baseURL: string, path: string) => (await fetch(baseURL + path)).status;
