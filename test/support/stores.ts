// What one server instance opens on a test database: a driver of its own with the gateway's tables and the app's
// store, both migrated.
import { migrateGateway, openDatabase } from '@gateway/db/database';
import { Store } from '@/lib/store';
import type { TestDatabase } from './databases';

/** The app's store on a new driver of `database`, once the gateway's migrations and the app's are applied. */
export async function openMigratedStore(database: TestDatabase): Promise<Store> {
  const store = new Store(openDatabase(database.options));
  await migrateGateway(store.driver);
  await store.ready();
  return store;
}
