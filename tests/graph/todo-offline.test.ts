/**
 * The to-do domain through the whole graph, offline, as `createTempo` builds it from `TEMPO_DOMAINS`: served with the
 * schedule (the router hands each prompt to the domain it is about) and alone. Every write waits on its card; the
 * answer says what happened, a declined or unmatched change included; the policy reads the tools' data, not their
 * text.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { asCard } from "../../contracts/cards.js";
import { createTempoDependencies } from "../../server/create-tempo.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { TodoRepository } from "../../tools/todo/index.js";
import type { ScheduleRepository } from "../../tools/schedule/index.js";
import { sampleWeekFrom } from "../../tools/schedule/sample-data.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";

type Decision = { type: "approve" } | { type: "reject"; message?: string };

/**
 * When every conversation here happens: a Sunday, so the sample week is the coming one and none of it has passed. The
 * served default seeds the coming week of the real clock when the week is first loaded; a test that compares two
 * Tempos (alone and beside the to-do list) seeded each at its own moment, and compared two weeks whenever the run
 * crossed a Monday morning. The week is seeded from this moment, and the graph keeps to it.
 */
const NOW = new Date("2026-12-06T12:00:00+08:00");

/** Tempo offline on `domains`, in memory; `wrap` changes the served domain (to hide tool text). */
async function tempoServing(domains: string, wrap: (domain: ToolDomain) => ToolDomain = (domain) => domain) {
  const settings = readSettings({ TEMPO_DOMAINS: domains });
  const dependencies = await createTempoDependencies(settings);
  await (dependencies.domains.get("schedule")?.repository as ScheduleRepository | undefined)?.seed(
    "student",
    sampleWeekFrom(NOW),
  );
  const graph = buildTempoGraph({
    models: dependencies.models,
    domain: wrap(dependencies.domain),
    checkpointer: new MemorySaver(),
    settings: settings.workflow,
    now: () => NOW,
  });
  const todos = dependencies.domains.get("todo")?.repository as TodoRepository | undefined;
  let thread = 0;
  /**
   * Sends `text` on a new thread (or on `threadId`) and answers each card with the next of `decisions` (approve when
   * they run out).
   */
  async function ask(text: string, decisions: Decision[] = [], threadId = `thread-${(thread += 1)}`) {
    const config = threadConfig(threadId, "student");
    let result: object = await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    const cards: string[] = [];
    const shown: unknown[] = [];
    for (let turn = 0; turn < 6 && interruptsOf(result).length > 0; turn += 1) {
      const card = asCard(interruptsOf(result)[0]!.value)!;
      cards.push(card.action_requests.map((request) => request.name).join(","));
      shown.push(...card.action_requests.map((request) => request.args));
      const decision = decisions.shift() ?? { type: "approve" };
      result = await graph.invoke(resume({ decisions: card.action_requests.map(() => decision) }), config);
    }
    const state = (await graph.getState(config)).values as {
      finalAnswer: string | null;
      phase: string;
      outcome: { kind: string } | null;
      messages: BaseMessage[];
      roundsUsed: number;
      planSteps: Array<{ content: string; summary?: string }>;
      ui?: Array<{ name: string; props: Record<string, unknown> }>;
    };
    // A task's final answer, or the chat's reply.
    const answer =
      state.finalAnswer ?? String(state.messages.findLast((message) => message.getType() === "ai")?.content ?? "");
    return {
      cards,
      shown,
      answer,
      phase: state.phase,
      outcome: state.outcome?.kind,
      roundsUsed: state.roundsUsed,
      planSteps: state.planSteps,
      ui: state.ui ?? [],
    };
  }
  const schedules = dependencies.domains.get("schedule")?.repository as ScheduleRepository | undefined;
  return { ask, todos: todos!, schedules: schedules!, domain: dependencies.domain };
}

describe("schedule and todo served together", () => {
  test("a to-do is added through the plan card and its write card, and the answer says so", async () => {
    const { ask, todos } = await tempoServing("schedule,todo");
    const added = await ask('Add "Call the bursar" to my to-do list');
    expect(added.cards).toEqual(["confirm_plan", "add_todo"]);
    expect(added).toMatchObject({
      answer: 'Done: added the to-do "Call the bursar".',
      phase: "done",
      outcome: "completed",
    });
    expect((await todos.load("student")).items.at(-1)).toEqual({ id: "todo-5", title: "Call the bursar", done: false });
  });

  test("a question about the list runs with no card; the week's questions still go to the schedule", async () => {
    const { ask } = await tempoServing("schedule,todo");
    const listed = await ask("what's on my to-do list?");
    expect(listed.cards).toEqual([]);
    expect(listed.answer).toBe(
      [
        "Your open to-dos (3):",
        "- Email the calculus TA about the midterm",
        "- Return the linear algebra library books",
        "- Buy index cards for flashcards",
      ].join("\n"),
    );
    const free = await ask("when am I free on Monday?");
    expect(free.cards).toEqual([]);
    // Monday by its date, the free time by the clock, the study hall by its name.
    expect(free.answer).toMatch(
      /^You are free:\n- Mon \d+ \w{3}: 14:00–15:40, 19:00–21:35 \(inside "Evening self-study hall", free for a review task\)/,
    );
  });

  test("an item named in the user's words is found on the list and marked done", async () => {
    const { ask, todos } = await tempoServing("schedule,todo");
    const done = await ask("tick off the index cards");
    expect(done.cards).toEqual(["confirm_plan", "complete_todo"]);
    expect(done.answer).toBe('Done: marked the to-do "Buy index cards for flashcards" done.');
    expect((await todos.load("student")).items.find((item) => item.id === "todo-3")?.done).toBe(true);
  });

  test("a declined change and an item that matches nothing leave the list as it was, and the answer says why", async () => {
    const { ask, todos } = await tempoServing("schedule,todo");
    const before = await todos.load("student");
    const declined = await ask("remove the library books from my to-do list", [
      { type: "approve" },
      { type: "reject" },
    ]);
    expect(declined.cards).toEqual(["confirm_plan", "remove_todo"]);
    expect(declined.answer).toBe(
      'Your to-do list is unchanged: you declined the change.\n\nYour decisions on the cards: left out at your request — Remove the to-do "Return the linear algebra library books".',
    );
    const unmatched = await ask("mark the groceries as done");
    expect(unmatched.cards).toEqual(["confirm_plan"]);
    expect(unmatched.answer).toBe('Your to-do list is unchanged: no to-do matches "groceries".');
    expect(await todos.load("student")).toEqual(before);
  });

  test("Chinese requests are answered in Chinese", async () => {
    const { ask, todos } = await tempoServing("schedule,todo");
    const added = await ask("把交学费加到待办");
    expect(added.answer).toBe("完成：已添加待办“交学费”。");
    expect((await todos.load("student")).items.map((item) => item.title)).toContain("交学费");
  });

  test("the policy reads the listing's data, not its text", async () => {
    // list_todos answers the model with text that names no item; its data is whole.
    const hideListing = (domain: ToolDomain): ToolDomain => ({
      ...domain,
      tools: domain.tools.map((tool) =>
        tool.name === "list_todos"
          ? { ...tool, run: (state, args) => ({ ...tool.run(state, args), content: "(the listing is withheld)" }) }
          : tool,
      ),
    });
    const { ask, todos } = await tempoServing("schedule,todo", hideListing);
    const done = await ask("tick off the library books");
    expect(done.cards).toEqual(["confirm_plan", "complete_todo"]);
    expect((await todos.load("student")).items.find((item) => item.id === "todo-2")?.done).toBe(true);
  });
});

describe("the schedule's closing check with the to-do list served beside it", () => {
  test("an arrangement's verification is the code's, as with the schedule alone: the same rounds, the data's words", async () => {
    const alone = await (await tempoServing("schedule")).ask("arrange my reviews");
    const both = await (await tempoServing("schedule,todo")).ask("arrange my reviews");
    expect(both.phase).toBe("done");
    expect(both.outcome).toBe("completed");
    expect(both.planSteps.at(-1)).toEqual(alone.planSteps.at(-1));
    expect(both.planSteps.at(-1)?.summary).toBe("the schedule shows 0 review task(s) still pending");
    // The verify step ended from the data, with no model round (the offline policy's verify round before).
    expect(both.roundsUsed).toBe(alone.roundsUsed);
    expect(both.answer).toBe(alone.answer);
  });

  test("the week is drawn for Agent Chat UI as with the schedule alone: the plan's, the proposal, the week now", async () => {
    const titles = (ui: Array<{ name: string; props: Record<string, unknown> }>) =>
      ui.filter((entry) => entry.name === "week").map((entry) => entry.props.title);
    const alone = await (await tempoServing("schedule")).ask("arrange my reviews");
    const both = await (await tempoServing("schedule,todo")).ask("arrange my reviews");
    expect(titles(alone.ui)).toEqual(expect.arrayContaining(["Proposed week", "Your week"]));
    expect(titles(both.ui)).toEqual(titles(alone.ui));
    expect(both.ui.filter((entry) => entry.name === "health")).toHaveLength(
      alone.ui.filter((entry) => entry.name === "health").length,
    );
  });

  test('"undo that" after a removal offers the restore card, which names the event on the week, as alone', async () => {
    // The tutorial's Friday is read off the week seeded, never written in (written "Fri 11 Dec" when the week was the
    // coming week of the real clock, it failed the next week).
    let friday = "";
    const undo = async (domains: string) => {
      const { ask, schedules } = await tempoServing(domains);
      const removed = await ask("Remove the Friday tutorial", [], "removal");
      expect(removed.cards).toEqual(["confirm_plan", "remove_event"]);
      const date = (await schedules.load("student")).window.days.find((day) => day.dayOfWeek === 5)!.date!;
      friday = new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", {
        weekday: "short",
        day: "numeric",
        month: "short",
        timeZone: "UTC",
      });
      return ask("Undo that", [], "removal");
    };
    const alone = await undo("schedule");
    const both = await undo("schedule,todo");
    expect(both.cards).toEqual(["confirm_plan", "restore_event"]);
    expect(friday).toMatch(/^Fri \d{1,2} [A-Z][a-z]{2}$/);
    expect(both.shown[1]).toMatchObject({
      event: "Calculus tutorial",
      when: `${friday.replace(",", "")}, 08:00–09:40`,
    });
    expect(both.shown).toEqual(alone.shown);
    expect(both.answer).toBe('Done: undid the last change: restored "Calculus tutorial".');
  });

  test('"undo that" after a to-do was added says the last change was not the schedule\'s; nothing changes', async () => {
    const { ask, todos } = await tempoServing("schedule,todo");
    await ask('Add "Call the bursar" to my to-do list', [], "todo-undo");
    const items = (await todos.load("student")).items;
    const undo = await ask("undo that", [], "todo-undo");
    expect(undo.cards).toEqual(["confirm_plan"]);
    expect(undo.answer).toBe(
      "Your schedule is unchanged: there is nothing I can undo — the last change (add_todo) was not to your schedule, and I can take back schedule changes only.",
    );
    expect((await todos.load("student")).items).toEqual(items);
    const chinese = await ask("撤销", [], "todo-undo");
    expect(chinese.answer).toBe(
      "日程没有改动：没有可以撤销的修改——上一次的修改（add_todo）不是对日程的修改，这里只能撤销日程的修改。",
    );
  });

  test("the combined domain's verification is the schedule's on its own part, its ids the schedule's items", async () => {
    const { domain } = await tempoServing("schedule,todo");
    const verification = domain.verification!;
    expect(verification.domain).toBe("schedule");
    expect(verification.step.content).toBe("Verify the schedule");
    const state = await domain.load("student");
    expect(verification.check(state, "en").summary).toMatch(/^the schedule shows \d+ review task\(s\) still pending/);
    const open = domain.openItems!(state);
    // Every id it says still fits is one of the schedule's open items.
    const fitting = verification.placing!.stillFit(state);
    expect(fitting.length).toBeGreaterThan(0);
    for (const id of fitting) expect(open.find((item) => item.id === id)?.domain).toBe("schedule");
  });
});

describe("todo served alone", () => {
  test("it has only its own tools and answers a schedule request honestly", async () => {
    const { ask, domain } = await tempoServing("todo");
    expect(domain.tools.map((tool) => tool.name)).toEqual([
      "list_todos",
      "add_todo",
      "complete_todo",
      "reopen_todo",
      "remove_todo",
    ]);
    const week = await ask("when am I free on Monday?");
    expect(week.cards).toEqual([]);
    expect(week.answer).toMatch(
      /^Offline, I can't tell what to do with "when am I free on Monday\?"\.\nI'm running offline .* For your to-do list I understand/,
    );
    const added = await ask("todo: renew the bus pass");
    expect(added.answer).toBe('Done: added the to-do "renew the bus pass".');
  });

  test("a Chinese user's bare answer is answered in Chinese, on either domain's policy", async () => {
    for (const domains of ["todo", "schedule,todo"]) {
      const { ask } = await tempoServing(domains);
      await ask("你好", [], "zh");
      const bare = await ask("a", [], "zh");
      expect(bare.cards).toEqual([]);
      expect(bare.answer).toMatch(/^离线模式下我理解不了“a”。\n/);
    }
  });
});
