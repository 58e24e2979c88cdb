// Runs once when the server starts: opens the store (SQLite or PostgreSQL) and applies its migrations before serving.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { store } = await import('@/lib/db/store');
  await store().ready();
}
