/** The thread file behind /threads and the reopening of a waiting thread. */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ThreadRegistry } from "../../cli/thread-registry.js";

describe("thread file", () => {
  test("records threads per user, newest first, keeping fields an update leaves out", async () => {
    const directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-threads-"));
    try {
      const registry = new ThreadRegistry(path.join(directory, "nested", "threads.json"));
      expect(await registry.list("alice")).toEqual([]);
      await registry.touch("t1", "alice", { lastMessage: "first" }, new Date("2026-01-01T00:00:00Z"));
      await registry.touch("t2", "bob", { lastMessage: "other user" }, new Date("2026-01-01T00:00:01Z"));
      await registry.touch("t1", "alice", { waitingFor: "place" }, new Date("2026-01-01T00:00:02Z"));
      await registry.touch("t3", "alice", {}, new Date("2026-01-01T00:00:03Z"));
      expect(await registry.list("alice")).toEqual([
        { threadId: "t3", userId: "alice", lastMessage: "", updatedAt: "2026-01-01T00:00:03.000Z", waitingFor: null },
        {
          threadId: "t1",
          userId: "alice",
          lastMessage: "first",
          updatedAt: "2026-01-01T00:00:02.000Z",
          waitingFor: "place",
        },
      ]);
      expect(await registry.find("t2")).toMatchObject({ userId: "bob" });
      // A damaged file reads as empty rather than stopping the chat.
      await fs.writeFile(registry.file, "{ not json");
      expect(await registry.list("alice")).toEqual([]);
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });
});
