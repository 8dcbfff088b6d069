/**
 * A standing preference said while a review already sits where it rules out: the review stays where it was put (no
 * write moves it), so the person is told which reviews those are and how to move them. Before, "no studying on
 * Mondays" with a review on Monday was answered "Noted … I'll keep to it whenever I arrange or move your reviews" and
 * nothing more, and the student found out from "how is my week", if they asked. Through the graph with the offline
 * policy and an in-memory store; which reviews are named is checked against the week's own clock times and dates.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import type { Preference } from "../../contracts/preferences.js";
import { loadPreferences } from "../../memory/preferences.js";
import { combineDomains } from "../../tools/combined-domain.js";
import { createScheduleDomain, InMemoryScheduleRepository, type ScheduleState } from "../../tools/schedule/index.js";
import { createTodoDomain } from "../../tools/todo/domain.js";
import { InMemoryTodoRepository } from "../../tools/todo/repository.js";
import {
  converse,
  crowdedMondayWeek,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
  SAMPLE_WEEK_EVE,
} from "./support/offline-conversation.js";
import { threadConfig } from "../support/scripted.js";

/** Each placed review: its name, its day, and its start and end off the week's own clock times. */
function placedReviews(week: ScheduleState): Array<{ name: string; day: number; start: string; end: string }> {
  const times = week.window.slotTimes!;
  return week.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "placed"
      ? [
          {
            name: task.name,
            day: task.slots![0]!.day,
            start: times[task.slots![0]!.start - 1]!.start,
            end: times[task.slots![0]!.end - 1]!.end,
          },
        ]
      : [],
  );
}

async function said(week: ScheduleState, message: string, now: () => Date = () => SAMPLE_WEEK_EVE) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(week, now, { store });
  return { tempo, outcome: await converse(tempo, message, [], "t-1") };
}

describe("a preference said with reviews already where it rules out", () => {
  test("'no studying on Mondays': the Monday review is named with its place and how to move it; moving it works", async () => {
    const week = halfPlacedWeek();
    const monday = placedReviews(week).filter((review) => review.day === 1);
    expect(monday.map((review) => review.name)).toEqual(["Review limits and continuity"]);
    const { tempo, outcome } = await said(week, "no studying on Mondays");
    expect(outcome.said).toHaveLength(2);
    expect(outcome.said[0]).toMatch(/^Noted as a standing preference \(never on Monday\)/);
    expect(outcome.said[1]).toBe(
      `Already in place where "no studying on Mondays" rules out: "Review limits and continuity" (Mon 11 Mar, ${monday[0]!.start}–${monday[0]!.end}). It stays there until you move it: say "move Review limits and continuity" and I'll find a place that keeps to your preferences.`,
    );
    // Told, not moved: the week is as it was.
    expect(outcome.schedule).toEqual(week);
    const moved = await converse(tempo, "move Review limits and continuity", [], "t-2");
    expect(placeOf(moved.schedule, "review-limits")).not.toMatch(/^day 1 |^pending$/);
  });

  test("'no studying after 9pm': exactly the reviews ending after 21:00 are named", async () => {
    const week = crowdedMondayWeek();
    const late = placedReviews(week).filter((review) => review.end > "21:00");
    expect(late).toHaveLength(2);
    const { outcome } = await said(week, "no studying after 9pm");
    const notice = outcome.said.at(-1)!;
    expect(notice).toMatch(/^Already in place where "no studying after 9pm" rules out: /);
    expect(notice).toMatch(/They stay there until you move them/);
    const named = [...notice.matchAll(/"([^"]+)" \(Mon 11 Mar, (\d\d:\d\d)–(\d\d:\d\d)\)/g)].map((match) => match[1]);
    expect(named.sort()).toEqual(late.map((review) => review.name).sort());
  });

  test("the reviews are named in the week's order, and the move said is the first's", async () => {
    // The task list holds "Derivative practice set" (21:45) before "Binary tree review" (20:50); the browser check
    // showed such a notice naming Saturday's 14:55 review before its 08:55 one.
    const week = crowdedMondayWeek();
    const late = placedReviews(week)
      .filter((review) => review.end > "21:00")
      .sort((one, other) => one.day - other.day || one.start.localeCompare(other.start));
    const { outcome } = await said(week, "no studying after 9pm");
    const notice = outcome.said.at(-1)!;
    const named = [...notice.matchAll(/"([^"]+)" \(Mon 11 Mar, (\d\d:\d\d)–(\d\d:\d\d)\)/g)].map((match) => match[1]);
    expect(named).toEqual(late.map((review) => review.name));
    expect(notice).toContain(`say "move ${late[0]!.name}"`);
  });

  test("a review whose place has started is history and is not named", async () => {
    const week = crowdedMondayWeek();
    // Monday 11 March 2024, 21:00 in Shanghai: 20:50-21:35 has started, 21:45-22:30 has not.
    const { outcome } = await said(week, "no studying after 9pm", () => new Date("2024-03-11T21:00:00+08:00"));
    const notice = outcome.said.at(-1)!;
    expect(notice).toContain('"Derivative practice set" (Mon 11 Mar, 21:45–22:30)');
    expect(notice).not.toContain("20:50");
    // Past both: nothing to tell.
    const later = await said(week, "no studying after 9pm", () => new Date("2024-03-11T22:00:00+08:00"));
    expect(later.outcome.said).toHaveLength(1);
    expect(later.outcome.said[0]).toMatch(/^Noted as a standing preference/);
  });

  test("a preference nothing placed breaks adds nothing to the reply", async () => {
    const week = halfPlacedWeek();
    expect(placedReviews(week).filter((review) => review.day === 7)).toEqual([]);
    const { outcome } = await said(week, "I never study on Sundays");
    expect(outcome.said).toHaveLength(1);
  });

  test("the notice is streamed as the memorize node's text, so the terminal and a streaming client show it", async () => {
    const store = new InMemoryStore();
    const { graph } = await offlineTempo(halfPlacedWeek(), undefined, { store });
    const config = threadConfig("t-stream", "student");
    const texts = new Map<string, string>();
    const stream = await graph.stream(
      { messages: [new HumanMessage("no studying on Mondays")] },
      { ...config, streamMode: "custom" },
    );
    for await (const event of stream as AsyncIterable<{ kind: string; node: string; messageId: string; text: string }>)
      if (event.kind === "assistant_text" && event.node === "memorize")
        texts.set(event.messageId, (texts.get(event.messageId) ?? "") + event.text);
    const last = (await graph.getState(config)).values.messages.at(-1) as { id: string; content: string };
    expect(last.content).toMatch(/^Already in place where "no studying on Mondays" rules out: /);
    expect([...texts]).toEqual([[last.id, last.content]]);
  });

  test("a week that cannot be read for the notice: the preference is kept, the run ends, and the status says so", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
    // Only the read of the week for the notice fails (a dropped connection).
    const load = tempo.repository.load.bind(tempo.repository);
    let failed = 0;
    tempo.repository.load = async (userId: string) => {
      if (new Error().stack?.includes("placedAgainst")) {
        failed += 1;
        throw new Error("connection terminated");
      }
      return load(userId);
    };
    const config = threadConfig("t-down", "student");
    const statuses: string[] = [];
    const stream = await tempo.graph.stream(
      { messages: [new HumanMessage("no studying on Mondays")] },
      { ...config, streamMode: "custom" },
    );
    for await (const event of stream as AsyncIterable<{ kind: string; text?: string }>)
      if (event.kind === "status" && event.text) statuses.push(event.text);
    expect(failed).toBe(1);
    const state = await tempo.graph.getState(config);
    const said = (state.values.messages as Array<{ getType(): string; content: string }>)
      .filter((message) => message.getType() === "ai")
      .map((message) => message.content);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Noted as a standing preference \(never on Monday\)/);
    expect(statuses).toContain("Could not read your week to check for reviews already where this preference rules out");
    expect((await loadPreferences(store, "student")).map((preference) => preference.kind)).toEqual(["avoid_day"]);
    // The thread goes on: the next message is answered, and the week is readable again.
    const next = await converse(tempo, "move Review limits and continuity", [], "t-down");
    expect(placeOf(next.schedule, "review-limits")).not.toMatch(/^day 1 |^pending$/);
  });

  test("in Chinese: '周一从不学习' names the Monday review and how to move it", async () => {
    const week = halfPlacedWeek({ chinese: true });
    const { tempo, outcome } = await said(week, "周一从不学习");
    const monday = placedReviews(week).filter((review) => review.day === 1)[0]!;
    expect(outcome.said.at(-1)).toBe(
      `已经安排在“周一从不学习”排除的时间里：“极限与连续复习”（3月11日周一 ${monday.start}–${monday.end}）。它会留在原处，直到你挪动：说“把极限与连续复习挪走”，我会找一个符合你偏好的时间。`,
    );
    const moved = await converse(tempo, "把极限与连续复习挪走", [], "t-2");
    expect(placeOf(moved.schedule, "review-limits")).not.toMatch(/^day 1 |^pending$/);
  });
});

describe("served beside another domain", () => {
  test("the schedule's part tells what it has in place; the to-do list, without the hook, adds nothing", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("student", halfPlacedWeek());
    const schedule = createScheduleDomain({ repository });
    const combined = combineDomains([schedule, createTodoDomain({ repository: new InMemoryTodoRepository() })]);
    const monday: Preference = {
      kind: "avoid_day",
      value: 1,
      text: "no studying on Mondays",
      id: "pref-monday",
      source: "stated in a message (thread t-1)",
      createdAt: "2026-01-05T10:00:00.000Z",
    };
    const alone = schedule.placedAgainstPreferences!(
      schedule.withPreferences!(await schedule.load("student"), [monday]),
      "en",
    );
    expect(alone).toMatch(/^Already in place where "no studying on Mondays" rules out: "Review limits and continuity"/);
    const both = combined.placedAgainstPreferences!(
      combined.withPreferences!(await combined.load("student"), [monday]),
      "en",
    );
    expect(both).toBe(alone);
    expect(combined.placedAgainstPreferences!(await combined.load("student"), "en")).toBeUndefined();
  });
});
