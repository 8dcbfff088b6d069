/**
 * A write card shown again after the week rolled on under it (the check-in ran while it waited): the terminal chat
 * shows the card as it was made, and draws no proposal on the new week — drawn there, its review would sit a week away
 * from the date the card names ("+ Linked list exercises: Sun 24 Mar" under "Place … on Sun 17 Mar").
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { runCheckin } from "../../cli/checkin.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { offlineTempo } from "../graph/support/offline-conversation.js";
import { typedChat } from "./support/typed-chat.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-stale-card-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const SUNDAY = new Date("2024-03-17T08:00:00+08:00");
const MONDAY = new Date("2024-03-18T09:00:00+08:00");

test("a card shown again after the week rolled on names its own dates and draws nothing on the new week", async () => {
  const tempo = await offlineTempo(sampleWeek(), () => SUNDAY);
  const session = (now: Date) => ({
    graph: tempo.graph,
    userId: "student",
    threadId: "plans",
    registry: new ThreadRegistry(path.join(directory, "threads.json")),
    now: now.toISOString(),
    loadSchedule: (user: string) => tempo.repository.load(user),
    weekView: { now: () => now },
  });
  const onSunday = await typedChat(["Schedule the linked list exercises on Sunday evening", "a"], session(SUNDAY));
  expect(onSunday).toContain('Place "Linked list exercises" on Sun 17 Mar, 19:00–20:40');
  expect(onSunday).toContain("+ Linked list exercises: Sun 17 Mar, 19:00–20:40");

  await runCheckin(tempo.graph, "student", MONDAY, "Asia/Shanghai");
  const onMonday = await typedChat([], session(MONDAY));
  expect(onMonday).toContain('Place "Linked list exercises" on Sun 17 Mar, 19:00–20:40');
  expect(onMonday).not.toContain("+ Linked list exercises");
});
