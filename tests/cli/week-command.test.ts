/**
 * `/week` and the proposal drawn under a write card, in the chat loop, in-process on the offline policy: the grid the
 * user sees is the stored week (before the card: nothing placed yet; after approving: the reviews where the card said),
 * and a chat without a schedule says /week is not available.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { typedChat } from "./support/typed-chat.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-week-view-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const NOW = new Date("2024-03-10T02:00:00Z");

async function chat(lines: string[], options: { withSchedule?: boolean } = {}) {
  const tempo = await offlineTempo(halfPlacedWeek(), () => NOW);
  const output = await typedChat(lines, {
    graph: tempo.graph,
    userId: "student",
    threadId: "week-1",
    registry: new ThreadRegistry(path.join(directory, "threads.json")),
    ...(options.withSchedule === false
      ? {}
      : { loadSchedule: (user: string) => tempo.repository.load(user), weekView: { now: () => NOW } }),
  });
  return { output, schedule: await tempo.repository.load("student") };
}

test("/week draws the stored week; a write card draws its proposal; after approving, /week shows it placed", async () => {
  const { output, schedule } = await chat(["/week", "arrange my week", "a", "a", "/week", "/quit"]);
  const grids = output.split("▌timetable");
  // One /week before, the batch card's proposal, one /week after approving it (and any later card's proposal).
  expect(grids.length).toBeGreaterThanOrEqual(4);
  expect(output).toContain("Confirm ");
  const [before] = grids;
  expect(before).toContain("●Matrix");
  expect(before).not.toContain("+");
  const proposalAt = output.indexOf("Confirm ");
  const proposal = output.slice(proposalAt);
  expect(proposal).toMatch(/\n\+ [^\n]+: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d+ Mar, \d\d:\d\d–\d\d:\d\d/);
  // Every review the proposal adds is placed where it said once the card is approved.
  const lastWeek = output.lastIndexOf("> /week");
  const added = [...output.slice(proposalAt, lastWeek).matchAll(/\n\+ ([^:\n]+): /g)].map((match) => match[1]!);
  expect(added.length).toBeGreaterThan(0);
  const placed = schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed");
  for (const name of added) expect(placed.map((task) => task.name)).toContain(name);
  const afterWeek = output.slice(lastWeek);
  expect(afterWeek).toContain(`●${added[0]!.slice(0, 4)}`);
});

test("in a Chinese chat, a bare answer is answered in Chinese and /week draws the week in Chinese", async () => {
  const { output } = await chat(["周五有空吗", "a", "/week", "/quit"]);
  const bare = output.slice(output.indexOf("> a\n"), output.indexOf("> /week"));
  expect(bare).toContain("离线模式下我理解不了“a”。");
  expect(bare).not.toContain("Offline");
  const week = output.slice(output.indexOf("> /week"));
  expect(week).toContain("▌课表");
  expect(week).toMatch(/3月\d+日周[一二三四五六日]/);
  expect(week).not.toContain("▌timetable");
});

test("without a schedule, /week says it is not available", async () => {
  const { output } = await chat(["/week", "/quit"], { withSchedule: false });
  expect(output).toContain("/week is not available here (no schedule is served).");
});
