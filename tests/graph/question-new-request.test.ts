/**
 * A new request sent while the mark step's "which one?" is open. Thursday holds the matrix review (19:00) and the week 1
 * flashcards (20:50); on Friday "I missed yesterday's review" asks which of them. Before, a request sent on Saturday
 * (`add a 1-slot task "week 3 flashcards" to english`) was read as the answer: its words matched "week 1 flashcards",
 * whose mark_missed card was raised, and the add was lost. Now a whole request is not an answer: nothing is marked, and
 * the answer says the request was not carried out, to be sent again; a real answer still names the review.
 */
import { HumanMessage } from "@langchain/core/messages";
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
  test("a whole request is no answer: no mark card, nothing marked, the request said not carried out", async () => {
    const tempo = await offlineTempo(thursdayEvening());
    const saturday = await asked(tempo, "new-request");
    const request = 'add a 1-slot task "week 3 flashcards" to english';
    const after = await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, saturday);
    expect(cardOf(after)?.action).not.toBe("mark_missed");
    const week = await tempo.repository.load("student");
    expect([statusOf(week, "a1"), statusOf(week, "w1")]).toEqual(["placed", "placed"]);
    expect(interruptsOf(after)).toEqual([]);
    expect(after.finalAnswer).toContain(request);
    expect(after.finalAnswer).not.toMatch(/Marking|marked "week 1 flashcards"/);
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
