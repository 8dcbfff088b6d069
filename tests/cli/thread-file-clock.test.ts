/**
 * The thread file under an injected clock: a terminal chat run with `--now` (a student living 7 December on 1 December)
 * lists its threads as active at that moment, the one every run of the chat takes as now — never the machine's clock,
 * which would list a thread as last active days before the week it was arranged in.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { offlineTempo } from "../graph/support/offline-conversation.js";
import { typedChat } from "./support/typed-chat.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-thread-clock-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** A moment years from the machine's clock, so a stamp taken from the machine cannot equal it. */
const NOW = new Date("2031-03-12T09:30:00+08:00");

test("a chat run with --now stamps its threads with that moment, sent and after /clear", async () => {
  const tempo = await offlineTempo(sampleWeek(), () => NOW);
  const registry = new ThreadRegistry(path.join(directory, "threads.json"));
  const options = {
    graph: tempo.graph,
    userId: "student",
    threadId: "week",
    registry,
    now: NOW.toISOString(),
    loadSchedule: (user: string) => tempo.repository.load(user),
    weekView: { now: () => NOW },
  };
  await typedChat(["Schedule the linked list exercises on Thursday evening"], options);
  const [entry] = await registry.list("student");
  expect(entry).toMatchObject({ threadId: "week", updatedAt: NOW.toISOString() });
  // /clear opens a new thread: it too is stamped with the chat's clock.
  await typedChat(["/clear"], options);
  const entries = await registry.list("student");
  expect(entries.length).toBeGreaterThanOrEqual(2);
  expect(entries.map((each) => each.updatedAt)).toEqual(entries.map(() => NOW.toISOString()));
});
