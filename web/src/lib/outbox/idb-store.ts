import { openDB } from 'idb';
import type { Intent, OutboxStore } from './outbox';

const DB_NAME = 'wm-outbox';
const STORE = 'intents';

/** The outbox's storage in the browser: IndexedDB, which outlives a reload, a closed tab and a restarted tablet. */
export function indexedDbStore(): OutboxStore {
  const opened = openDB(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE, { keyPath: 'key' });
    },
  });
  return {
    all: async () => (await (await opened).getAll(STORE)) as Intent[],
    put: async (intent) => {
      await (await opened).put(STORE, intent);
    },
    remove: async (key) => {
      await (await opened).delete(STORE, key);
    },
  };
}
