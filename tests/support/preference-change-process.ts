/**
 * Child process for the cross-process preference lock test (a second server worker on the same Postgres):
 *   node --import tsx preference-change-process.ts <databaseUrl> <userId> <message> <now>
 * Applies the standing-preference change `message` states to `userId`'s profile through its own memory store (its
 * own pool, its own in-process queues) and prints what it added and removed, as JSON, on one line.
 */
import { openDatabase } from "../../database/index.js";
import { applyPreferenceChange } from "../../memory/preferences.js";
import { createMemoryStore } from "../../memory/store.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";

const [databaseUrl, userId, message, now] = process.argv.slice(2);
if (!databaseUrl || !userId || !message || !now) {
  console.error("usage: preference-change-process.ts <databaseUrl> <userId> <message> <now>");
  process.exit(2);
}
const database = await openDatabase({ databaseUrl, poolSize: 2 });
const store = await createMemoryStore(database, { poolSize: 2 });
try {
  const { added, removed } = await applyPreferenceChange(store, userId, readSchedulePreferences(message), "child", now);
  console.log(JSON.stringify({ added: added.map((entry) => entry.text), removed: removed.map((entry) => entry.text) }));
} finally {
  await store.stop();
  await database.close();
}
