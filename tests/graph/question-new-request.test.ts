/**
 * A new request sent while the mark step's "which one?" is open. Thursday holds the matrix review (19:00) and the week 1
 * flashcards (20:50); on Friday "I missed yesterday's review" asks which of them. Before, a request sent on Saturday
 * (`add a 1-slot task "week 3 flashcards" to english`) was read as the answer: its words matched "week 1 flashcards",
 * whose mark_missed card was raised, and the add was lost. Then a whole request was no answer, but it was not carried
 * out either: nothing was marked, and the answer said to send it again. Now, sent as a message while the execute
 * stage's question waits, a request of its own drops the task that asked (said so) and is carried out as a new task,
 * in the same run; a real answer still names the review.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { datedWindow, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";

/** Mon 7 – Sun 13 Sep 2026, two reviews placed on Thursday evening. */
function thursdayEvening(): ScheduleState {
  const placed = (id: string, name: string, categoryId: string, start: number): TaskItem => ({
    id,
    name,
    source: "task_item",
    duration: 1,
    categoryId,
    status: "placed",
    slots: [{ day: 4, start, end: start }],
  });
  return {
    window: datedWindow({ firstDate: "2026-09-07", days: 7, timeZone: "Asia/Shanghai" }),
    categories: [
      { id: "algebra", name: "Linear Algebra" },
      { id: "english", name: "English" },
    ],
    tasks: [placed("a1", "Matrix review", "algebra", 10), placed("w1", "week 1 flashcards", "english", 11)],
  };
}

type Tempo = Awaited<ReturnType<typeof offlineTempo>>;

/** The first card of a run's result: its action and description. */
function cardOf(result: object) {
  const value = interruptsOf(result)[0]?.value as
    { action_requests?: Array<{ name: string; args: Record<string, unknown>; description?: string }> } | undefined;
  const request = value?.action_requests?.[0];
  return request ? { action: request.name, args: request.args, description: request.description ?? "" } : undefined;
}

/** "I missed yesterday's review" on Friday 09:00, the plan accepted: the question which of Thursday's reviews. */
async function asked(tempo: Tempo, thread: string) {
  const at = (now: string) => {
    const base = threadConfig(thread, "student");
    return { ...base, configurable: { ...base.configurable, now } };
  };
  const friday = at("2026-09-11T09:00:00+08:00");
  const planned = await tempo.graph.invoke({ messages: [new HumanMessage("I missed yesterday's review")] }, friday);
  expect(cardOf(planned)?.action).toBe("confirm_plan");
  const question = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), friday);
  expect(cardOf(question)?.action).toBe("ask_user");
  expect(cardOf(question)?.description).toMatch(/holds 2 reviews/);
  return at("2026-09-12T10:00:00+08:00");
}

const statusOf = (week: ScheduleState, id: string) => (week.tasks.find((task) => task.id === id) as TaskItem).status;

describe("a new request while the mark step asks which review", () => {
  test.each([
    [
      'add a 1-slot task "week 3 flashcards" to english',
      /^Dropped "I missed yesterday's review" \(you sent a new request/,
    ],
    [
      '给english添加任务："week 3 flashcards"',
      /^已放弃"I missed yesterday's review"（在它的问题还没回答时你发来了新的请求/,
    ],
  ])("%s is no answer: the mark is dropped, said so, and the request carried out", async (request, dropped) => {
    const tempo = await offlineTempo(thursdayEvening());
    const saturday = await asked(tempo, `new-request-${request.length}`);
    const after = await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, saturday);
    // The new request's own plan card, not the mark's.
    expect(cardOf(after)).toMatchObject({ action: "confirm_plan" });
    expect(cardOf(after)?.description).toContain("week 3 flashcards");
    const said = (after.messages as BaseMessage[]).map((message) => String(message.content));
    expect(said.some((text) => dropped.test(text))).toBe(true);
    // The plan card, then the add's write card, approved.
    let done = after;
    for (let card = 0; card < 2; card += 1)
      done = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), saturday);
    expect(interruptsOf(done)).toEqual([]);
    const week = await tempo.repository.load("student");
    // Nothing marked; the task added.
    expect([statusOf(week, "a1"), statusOf(week, "w1")]).toEqual(["placed", "placed"]);
    expect(week.tasks.map((task) => task.name)).toContain("week 3 flashcards");
  });

  test.each([
    ["the flashcards", "w1"],
    ["the matrix review", "a1"],
  ])('"%s" answers it: the mark card is for %s', async (answer, id) => {
    const tempo = await offlineTempo(thursdayEvening());
    const saturday = await asked(tempo, `answer-${id}`);
    const after = await tempo.graph.invoke({ messages: [new HumanMessage(answer)] }, saturday);
    expect(cardOf(after)).toMatchObject({ action: "mark_missed", args: { task_id: id } });
  });
});
