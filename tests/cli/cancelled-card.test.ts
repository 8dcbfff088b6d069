/**
 * A card the terminal chat shows may be answered from another client while its prompt waits, and that run cancelled
 * part-way through its writes (the server's `interrupt` multitask strategy). The chat's next line was sent as the
 * answer to the card it still showed, refused, and the cancelled run's report never printed. Now the line is not
 * sent: the chat says the card is gone, carries the stopped run on and prints its report — what applied, what did not.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ChatSession } from "../../cli/session.js";
import type { LineReader } from "../../cli/line-reader.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { threadConfig } from "../support/scripted.js";
import { approveBatchCancelledAfter } from "../support/cancelled-batch.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-cancelled-card-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

test.each([
  ["arrange my reviews", "yes", "thanks", /Changes applied \(they stay\): 3/, /Approved but not applied: 5/],
  ["安排我这周的复习", "是", "谢谢", /已应用的修改（保留）：3/, /已批准但未应用：5/],
] as const)(
  "%s: the batch card answered elsewhere and cancelled after 3 writes; the next line prints the report",
  async (request, approve, next, applied, notApplied) => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", sampleWeek());
    const log = new MemoryExecutionLog();
    const now = "2024-03-10T20:00:00+08:00";
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
      executionLog: log,
      now: () => new Date(now),
    });
    const base = threadConfig("cancelled-card", "student");
    const config = { ...base, configurable: { ...base.configurable, now: new Date(now).toISOString() } };
    let output = "";
    // Typed in turn; once the batch card is up, another client approves it in a run cancelled after its third write.
    const lines = [request, approve, next, "/state"];
    const input = {
      read: async (prompt: string) => {
        if (lines.length === 2) await approveBatchCancelledAfter(graph, log, config, 3);
        const line = lines.shift() ?? null;
        output += `${prompt}${line ?? ""}\n`;
        return line;
      },
    } as unknown as LineReader;
    await new ChatSession({
      graph,
      userId: "student",
      threadId: "cancelled-card",
      registry: new ThreadRegistry(path.join(directory, "threads.json")),
      input,
      write: (text) => (output += text),
      now: new Date(now).toISOString(),
    }).run();
    const after = output.slice(output.lastIndexOf(next));
    expect(after).toMatch(/That card is no longer open|那张卡片已经不再有效/);
    // A run cancelled is carried on as one that stopped, not told as a crash (it said "(a crash or a restart)").
    expect(after).toMatch(/resuming — its last run stopped part-way|继续运行 — 上一次运行中途停止了/);
    expect(after).not.toMatch(/crash|restart|崩溃|重启/);
    expect(after).toMatch(applied);
    expect(after).toMatch(notApplied);
    expect(after).not.toMatch(/Answer with|请回答/);
    expect(
      (await repository.load("student")).tasks.filter((task) => "status" in task && task.status === "placed"),
    ).toHaveLength(3);
  },
);
