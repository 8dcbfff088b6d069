/**
 * Preferences that last (issue 31 item 3), through the graph with the offline policy and an in-memory store: "never
 * on Monday" said on a write card becomes a standing preference, and the next task — on the same thread and on a new
 * one — never proposes Monday, every stage prompt showing the preference; a preference stated in a message becomes an
 * entry, a one-off "Saturday instead" does not; /forget in the terminal chat removes it and Monday is proposed again;
 * another user never sees the profile.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import type { BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { LineReader } from "../../cli/line-reader.js";
import { ChatSession } from "../../cli/session.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { messageText } from "../../contracts/message-text.js";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import {
  converse,
  HALF_PLACED,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
  type SeenCard,
} from "./support/offline-conversation.js";

/** The offline policy, recording the last message of every stage prompt it answers. */
class RecordingPolicy extends ScheduleOfflinePolicy {
  readonly prompts: string[] = [];

  override async _generate(messages: BaseMessage[]) {
    this.prompts.push(messageText(messages.at(-1)!));
    return super._generate(messages);
  }
}

/** The days a card's writes put tasks on. */
const daysOf = (card: SeenCard): number[] =>
  [card.args.day, ...((card.args.moves as Array<{ day: number }> | undefined) ?? []).map((move) => move.day)].filter(
    (day): day is number => typeof day === "number",
  );
const onMonday = (card: SeenCard) => daysOf(card).includes(1);
/** Task items the schedule has on Monday (day 1 of the sample week). */
const mondayTasks = (schedule: ScheduleState) =>
  schedule.tasks
    .filter((task) => task.source === "task_item" && (task.slots ?? []).some((range) => range.day === 1))
    .map((task) => task.id);
const pending = (schedule: ScheduleState) =>
  schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;

async function tempoWithMemory() {
  const store = new InMemoryStore();
  const policy = new RecordingPolicy();
  const tempo = await offlineTempo(sampleWeek(), undefined, { store, policy });
  await tempo.repository.seed("bob", sampleWeek());
  return { store, policy, tempo };
}

describe("a rejected Monday", () => {
  test("'never on Monday' on a write card is remembered; the next task, on the same thread and on a new one, never proposes Monday and every prompt says why", async () => {
    const { store, policy, tempo } = await tempoWithMemory();
    const first = await converse(
      tempo,
      "Arrange my reviews",
      (card) => (onMonday(card) ? { type: "response", args: "never on Monday" } : { type: "accept", args: null }),
      "t-1",
    );
    // The week's arrangement did propose Monday, and was told no.
    expect(first.cards.filter(onMonday).length).toBeGreaterThan(0);
    expect(mondayTasks(first.schedule)).toEqual([]);
    const profile = await loadPreferences(store, "student");
    expect(profile.map(({ kind, value, text, source }) => ({ kind, value, text, source }))).toEqual([
      { kind: "avoid_day", value: 1, text: "never on Monday", source: "card feedback on place (thread t-1)" },
    ]);

    for (const thread of ["t-1", "t-2"]) {
      await tempo.repository.seed("student", sampleWeek());
      policy.prompts.length = 0;
      const next = await converse(tempo, "Arrange my reviews", [], thread);
      const writes = next.cards.filter((card) => card.action !== "confirm_plan");
      expect(writes.length).toBeGreaterThan(3);
      expect(writes.filter(onMonday)).toEqual([]);
      expect(mondayTasks(next.schedule)).toEqual([]);
      expect(pending(next.schedule)).toBe(0);
      // Every stage prompt of the task carries the profile.
      expect(policy.prompts.length).toBeGreaterThan(3);
      for (const prompt of policy.prompts)
        expect(prompt).toContain("<standing_preferences>\nYour standing preferences");
      expect(
        policy.prompts.every((prompt) => prompt.includes("- never on Monday (hard: the tools refuse otherwise)")),
      ).toBe(true);
    }
    // The profile is still the one entry: the same preference is not stored twice.
    expect(await loadPreferences(store, "student")).toHaveLength(1);
  });
});

describe("feedback that goes on at length", () => {
  test("'never on Monday' followed by a sentence of thousands of 和 is remembered at once; the long sentence states nothing", async () => {
    // The request reader's patterns backtrack in time cubic in a sentence of 和 with no swap verb: read as a standing
    // preference, such feedback held the event loop for minutes, whatever the model. The limit on this test is the
    // symptom's bound, not a measure of speed.
    const { store, tempo } = await tempoWithMemory();
    const feedback = `never on Monday. I never study on Monday ${"和".repeat(6_000)}`;
    const first = await converse(
      tempo,
      "Arrange my reviews",
      (card) => (onMonday(card) ? { type: "response", args: feedback } : { type: "accept", args: null }),
      "t-long",
    );
    expect(first.cards.filter(onMonday).length).toBeGreaterThan(0);
    expect(mondayTasks(first.schedule)).toEqual([]);
    const profile = await loadPreferences(store, "student");
    expect(profile.map(({ kind, value, text }) => ({ kind, value, text }))).toEqual([
      { kind: "avoid_day", value: 1, text: "never on Monday." },
    ]);
  }, 10_000);
});

describe("a write onto an avoided day", () => {
  test("asked outright to move a review onto Monday, no card is raised: the move is refused naming the preference and how to remove it", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("never on Monday"),
      "card feedback on place (thread t-1)",
      "2026-01-05T10:00:00.000Z",
    );
    const outcome = await converse(tempo, "Move the matrix review to Monday", [], "t-9");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.toolCalls).toContain("move");
    const said = outcome.said.join("\n");
    // Told as a person reads it: the day by its date.
    expect(said).toMatch(
      /cannot go on Mon \d{1,2} [A-Z][a-z]{2}: your standing preference "never on Monday" rules Mon out/,
    );
    expect(said).toContain("/forget pref-");
    expect(said).toContain('"Mondays are fine now"');
    expect(said).not.toMatch(/^Moving /m);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe(`day ${HALF_PLACED["matrix-review"]![0]} slots 3-4`);
  });

  test("asked in Chinese, the refusal is in Chinese: the day by its date, the preference as it was said, how to lift it", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("我周一从不学习"),
      "card feedback on place (thread t-1)",
      "2026-01-05T10:00:00.000Z",
    );
    const outcome = await converse(tempo, "把矩阵复习移到周一", [], "t-9");
    expect(outcome.toolCalls).toContain("move");
    const said = outcome.said.join("\n");
    expect(said).toMatch(/不能安排在\d{1,2}月\d{1,2}日周一：你的长期偏好“我周一从不学习”排除了周一/);
    expect(said).toMatch(/\/forget pref-\S+ 删除这一条/);
    expect(said).toContain("“周一可以了”");
    expect(said).not.toMatch(/cannot go on|standing preference|to change it/);
    // The move that was refused is never announced as if it were being made.
    expect(said).not.toMatch(/移动"Matrix operations review"到/);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe(`day ${HALF_PLACED["matrix-review"]![0]} slots 3-4`);
  });
});

describe("what becomes an entry", () => {
  test("a preference stated in a message becomes an entry; a one-off 'Saturday instead' on a card does not; a short Chinese one does", async () => {
    const { store, tempo } = await tempoWithMemory();
    let rejectedOne = false;
    const outcome = await converse(
      tempo,
      "I never study on Sundays. Arrange my reviews",
      (card) => {
        if (rejectedOne || card.action === "confirm_plan") return { type: "accept", args: null };
        rejectedOne = true;
        return { type: "response", args: "Saturday instead" };
      },
      "t-3",
    );
    expect(rejectedOne).toBe(true);
    expect(outcome.said.join("\n") + (outcome.finalAnswer ?? "")).toContain("Saturday instead");
    expect(
      (await loadPreferences(store, "student")).map(({ kind, value, source }) => ({ kind, value, source })),
    ).toEqual([{ kind: "avoid_day", value: 7, source: "stated in a message (thread t-3)" }]);
    await converse(tempo, "我喜欢晚上复习", [], "t-4");
    expect((await loadPreferences(store, "student")).map(({ kind, value, text }) => ({ kind, value, text }))).toEqual([
      { kind: "avoid_day", value: 7, text: "I never study on Sundays." },
      { kind: "part_of_day", value: "evening", text: "我喜欢晚上复习" },
    ]);
  });
});

describe("a message that only states a preference", () => {
  test("is answered as noted, not as a request the policy cannot tell; a lift names what it takes back, or that none was held", async () => {
    // Before, "I never study on Sundays" alone was answered "Offline, I can't tell what to do with …" and the capability
    // list, while the memory said beside it that the preference was remembered.
    const { store, tempo } = await tempoWithMemory();
    const stated = await converse(tempo, "I never study on Sundays", [], "t-stated");
    expect(stated.said.at(-1)).toBe(
      "Noted as a standing preference (never on Sunday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    );
    expect((await loadPreferences(store, "student")).map(({ kind, value }) => ({ kind, value }))).toEqual([
      { kind: "avoid_day", value: 7 },
    ]);
    const nothingHeld = await converse(tempo, "Mondays are fine now", [], "t-stated");
    expect(nothingHeld.said.at(-1)).toBe(
      'You have no standing preference that "Mondays are fine now" takes back, so nothing changed. /prefs lists your preferences.',
    );
    expect(await loadPreferences(store, "student")).toHaveLength(1);
    const lifted = await converse(tempo, "Sundays are fine now", [], "t-stated");
    expect(lifted.said.at(-1)).toBe('Noted: I no longer keep to "never on Sunday" when I arrange your reviews.');
    expect(await loadPreferences(store, "student")).toEqual([]);
    const chinese = await converse(tempo, "我喜欢晚上复习", [], "t-stated");
    expect(chinese.said.at(-1)).toBe(
      "记下了这条长期偏好：“我喜欢晚上复习”（尽量在晚上）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    );
    expect(chinese.schedule).toEqual(stated.schedule);
  });
});

describe("a day ruled out for everything", () => {
  test("'don't schedule anything on friday', in either language, is kept as a preference and arranges nothing", async () => {
    // Before, each of these raised a plan card to place every pending review elsewhere ("not on Friday"), or asked
    // which task "任何事" was. Each said to a student who has not said it yet (said again, it is kept already:
    // tests/graph/preference-said-again.test.ts).
    for (const [message, thread] of [
      ["dont schedule anything on friday", "t-f1"],
      ["don't put anything on friday", "t-f2"],
    ]) {
      const { tempo } = await tempoWithMemory();
      const outcome = await converse(tempo, message!, [], thread);
      expect(outcome.cards).toEqual([]);
      expect(outcome.said.at(-1)).toBe(
        "Noted as a standing preference (never on Friday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
      );
      expect(pending(outcome.schedule)).toBe(pending(sampleWeek()));
    }
    const { store, tempo } = await tempoWithMemory();
    const chinese = await converse(tempo, "周五不要安排任何事", [], "t-f3");
    expect(chinese.cards).toEqual([]);
    expect(chinese.said.at(-1)).toBe(
      "记下了这条长期偏好：“周五不要安排任何事”（周五不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    );
    expect((await loadPreferences(store, "student")).map(({ kind, value }) => ({ kind, value }))).toEqual([
      { kind: "avoid_day", value: 5 },
    ]);
  });
});

describe("the user's own profile", () => {
  test("/prefs lists it and /forget removes the entry in the terminal chat: the next task proposes Monday again", async () => {
    const { store, tempo } = await tempoWithMemory();
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("never on Monday"),
      "card feedback on place (thread t-1)",
      "2026-01-05T10:00:00.000Z",
    );
    const blocked = await converse(tempo, "Arrange my reviews", [], "t-5");
    expect(blocked.cards.filter(onMonday)).toEqual([]);

    const directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-prefs-"));
    try {
      let output = "";
      const stdin = new PassThrough();
      const input = new LineReader(
        createInterface({ input: stdin, terminal: false }),
        true,
        (text) => (output += text),
      );
      stdin.end(["/prefs", "/forget 2", "/forget 1", "/prefs", ""].join("\n"));
      const registry = new ThreadRegistry(path.join(directory, "threads.json"));
      await new ChatSession({
        graph: tempo.graph,
        userId: "student",
        threadId: "t-6",
        registry,
        input,
        write: (text) => (output += text),
      }).run();
      expect(output).toContain(
        "Your standing preferences:\n1. never on Monday — card feedback on place (thread t-1), 2026-01-05",
      );
      expect(output).toContain('No preference "2": give its number (1-1) or its id, as /prefs lists them.');
      expect(output).toContain('Removed: "never on Monday". The next task no longer keeps to it.');
      expect(output).toContain("No standing preferences.");
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
    expect(await loadPreferences(store, "student")).toEqual([]);
    await tempo.repository.seed("student", sampleWeek());
    const again = await converse(tempo, "Arrange my reviews", [], "t-7");
    expect(again.cards.filter(onMonday).length).toBeGreaterThan(0);
  });

  test("saying 'Mondays are fine now' takes the preference back", async () => {
    const { store, tempo } = await tempoWithMemory();
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("never on Monday"),
      "card feedback on place (thread t-1)",
      "2026-01-05T10:00:00.000Z",
    );
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("I prefer mornings"),
      "stated in a message (thread t-1)",
      "2026-01-05T10:01:00.000Z",
    );
    await converse(tempo, "Mondays are fine now", [], "t-8");
    expect((await loadPreferences(store, "student")).map((entry) => entry.text)).toEqual(["I prefer mornings"]);
  });

  test("another user never sees it: Bob's task proposes Monday and his prompts hold no preference of Alice's", async () => {
    const { store, policy, tempo } = await tempoWithMemory();
    await applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences("never on Monday"),
      "card feedback on place (thread t-1)",
      "2026-01-05T10:00:00.000Z",
    );
    const bob = await converse(tempo, "Arrange my reviews", [], "t-bob", "bob");
    expect(bob.cards.filter(onMonday).length).toBeGreaterThan(0);
    expect(policy.prompts.length).toBeGreaterThan(3);
    expect(
      policy.prompts.some((prompt) => prompt.includes("standing_preferences") || prompt.includes("never on Monday")),
    ).toBe(false);
    expect(await loadPreferences(store, "bob")).toEqual([]);
    expect(await loadPreferences(store, "student")).toHaveLength(1);
  });
});
