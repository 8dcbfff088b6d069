/**
 * A process that serves an embedded database on a data directory and prints `{"event":"ready","pid":…}`, then waits
 * to be killed: the live owner for the lock tests.
 *
 *   npx tsx tests/database/support/embedded-owner.ts <dataDir>
 */
import { startEmbeddedPostgres } from "../../../database/embedded-postgres.js";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: embedded-owner.ts <dataDir>");
await startEmbeddedPostgres({ dataDir });
console.log(JSON.stringify({ event: "ready", pid: process.pid }));
setInterval(() => undefined, 60_000);
