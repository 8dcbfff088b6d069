/**
 * Child process for the multi-process setup test:
 *   node --import tsx setup-checkpointer-process.ts <databaseUrl> <schema> [startAtEpochMs]
 * Waits until startAtEpochMs (so sibling processes collide), runs createCheckpointer, exits 0 on success.
 */
import { createCheckpointer } from "../../checkpoints/index.js";
import { openDatabase } from "../../database/index.js";

const [databaseUrl, schema, startAt] = process.argv.slice(2);
if (!databaseUrl || !schema) {
  console.error("usage: setup-checkpointer-process.ts <databaseUrl> <schema> [startAtEpochMs]");
  process.exit(2);
}
const delay = Number(startAt ?? 0) - Date.now();
if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
const database = await openDatabase({ databaseUrl, poolSize: 2 });
try {
  await createCheckpointer(database, { schema });
} finally {
  await database.close();
}
