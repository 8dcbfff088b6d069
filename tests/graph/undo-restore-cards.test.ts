/**
 * "Undo that" after a removal raises a card of restore_event / restore_task writes that apply the whole record
 * remove_event / remove_task kept (issue 48: people's words, not internals). Agent Chat UI (`action_requests[].args`,
 * and the proposal message's tool calls, drawn as a table) and Agent Inbox (`action_requests[0].arguments`, older
 * builds `action_request.args`) draw arguments even where nothing can be edited, so the card and the proposal's call
 * show the record in words — the name and when — and no JSON record; the record is kept beside the call and is what
 * applies. The card still takes approve or reject only: approve restores (Inbox's accept echoing what the card showed
 * included), an edit is refused and restores nothing.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import type { ScheduleState } from "../../tools/schedule/state.js";
import { runTool } from "../schedule/support.js";
import { oneEventCalendar } from "../support/calendars.js";
import { interruptsOf, json, planDone, resume, scripted, threadConfig } from "../support/scripted.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { packProblems } from "../../tools/domain.js";
import { writeCard, writeCardOutline } from "../../review/interrupt-cards.js";
import { readCardResume } from "../../review/resume.js";
import { callArguments } from "../../kernel/call-records.js";
import { MemorySaver } from "@langchain/langgraph";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The undo card as both clients read it: the v1 requests (`args` and `arguments`) and the legacy request. */
interface RaisedCard {
  action_requests: Array<{
    name: string;
    args: Record<string, unknown>;
    arguments: Record<string, unknown>;
    description: string;
  }>;
  action_request: { action: string; args: Record<string, unknown> };
  review_configs: Array<{ allowed_decisions: string[] }>;
}

const cardOf = (result: object) => interruptsOf(result)[0]?.value as RaisedCard | undefined;
const hasTask = (state: ScheduleState, id: string) => state.tasks.some((task) => task.id === id);
const byId = (state: ScheduleState) => [...state.tasks].sort((a, b) => a.id.localeCompare(b.id));

/** Every argument object the card shows a person, in the three places the clients read them. */
function shownArguments(card: RaisedCard): Array<Record<string, unknown>> {
  return [
    ...card.action_requests.map((request) => request.args),
    ...card.action_requests.map((request) => request.arguments),
    card.action_request.args,
  ];
}

/** True when `args` is words only: every value a string, nothing of the record (ids, slots, the series rule). */
function isInWords(args: Record<string, unknown>, recordId: string): boolean {
  const text = JSON.stringify(args);
  return (
    Object.values(args).every((value) => typeof value === "string") &&
    !text.includes(recordId) &&
    !/"(?:slots|series|source|canEmbed|embeds|categoryId|duration|rule)"/.test(text)
  );
}

/** The offline Tempo after "remove the Friday tutorial" (approved), waiting on "undo that"'s restore_event card. */
async function waitingOnRestoreEvent(week: ScheduleState, remove: string, undo: string, thread: string) {
  const tempo = await offlineTempo(week);
  const config = threadConfig(thread, "student");
  await converse(tempo, remove, [], thread);
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(undo)] }, config);
  for (let turn = 0; turn < 5 && cardOf(result)?.action_requests[0]?.name !== "restore_event"; turn++)
    result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  const card = cardOf(result)!;
  expect(card.action_requests.map((request) => request.name)).toEqual(["restore_event"]);
  return { tempo, config, card, result };
}

/**
 * The proposal's call of `tool` in the thread's messages: `shown`, its arguments as the message carries them (what
 * Agent Chat UI's tool-call table draws), and `applies`, what the write applies with (kernel/call-records.ts).
 */
function proposedCall(messages: readonly BaseMessage[], tool: string) {
  const message = messages.findLast((candidate) =>
    ((candidate as AIMessage).tool_calls ?? []).some((call) => call.name === tool),
  ) as AIMessage | undefined;
  const call = message?.tool_calls?.findLast((entry) => entry.name === tool);
  return call && message ? { shown: call.args, applies: callArguments(message, call) } : undefined;
}

describe("an undo's restore_event card shows the event in words, not its record", () => {
  test("the name and when in every client's arguments; the call keeps the record; approve restores", async () => {
    const week = halfPlacedWeek();
    const { tempo, config, card, result } = await waitingOnRestoreEvent(
      week,
      "remove the Friday tutorial",
      "undo that",
      "restore-event-words",
    );
    for (const args of shownArguments(card)) {
      expect(args).toEqual({ event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40" });
      expect(isInWords(args, "fri-calculus-tutorial")).toBe(true);
    }
    expect(card.review_configs[0]!.allowed_decisions).toEqual(["approve", "reject"]);
    expect(card.action_requests[0]!.description).toContain('Put back the removed event "Calculus tutorial"');
    // The proposal's call a person sees (Agent Chat UI draws its arguments as a table) shows the same words; the
    // record remove_event kept is kept beside it, and is what applies.
    const call = proposedCall(result.messages, "restore_event");
    expect(call?.shown).toEqual({ event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40" });
    expect((call?.applies.event as { id?: string } | undefined)?.id).toBe("fri-calculus-tutorial");
    // An edit is refused, and nothing is restored.
    const edit = { type: "edit", edited_action: { name: "restore_event", args: { event: "Calculus tutorial" } } };
    await expect(tempo.graph.invoke(resume({ decisions: [edit] }), config)).rejects.toThrow(/edit/);
    expect(hasTask(await tempo.repository.load("student"), "fri-calculus-tutorial")).toBe(false);
    const done = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(byId(await tempo.repository.load("student"))).toEqual(byId(week));
  });

  test("Agent Inbox's accept, echoing the arguments the card showed, restores the event once", async () => {
    const week = halfPlacedWeek();
    const { tempo, config, card } = await waitingOnRestoreEvent(
      week,
      "remove the Friday tutorial",
      "undo that",
      "restore-event-inbox",
    );
    const accept = { type: "accept", args: { action: "restore_event", args: card.action_request.args } };
    const done = await tempo.graph.invoke(resume([accept]), config);
    expect(interruptsOf(done)).toEqual([]);
    const back = await tempo.repository.load("student");
    expect(byId(back)).toEqual(byId(week));
    expect(back.tasks.filter((task) => task.id === "fri-calculus-tutorial")).toHaveLength(1);
  });

  test("a weekly series says how it repeats; a Chinese thread's card is in Chinese", async () => {
    const series = halfPlacedWeek();
    series.tasks = series.tasks.filter((task) => task.id !== "fri-calculus-tutorial");
    const calendar = oneEventCalendar("tutorial-1", "Calculus tutorial", "20240315T000000Z", "20240315T014000Z", [
      "RRULE:FREQ=WEEKLY;COUNT=10",
    ]);
    const weekly = runTool("import_calendar", series, { ics: calendar }).state as ScheduleState;
    const id = weekly.tasks.find((task) => task.name === "Calculus tutorial")!.id;
    const english = await waitingOnRestoreEvent(weekly, "remove the Friday tutorial", "undo that", "restore-weekly");
    for (const args of shownArguments(english.card)) {
      expect(args).toEqual({ event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40", repeats: "weekly" });
      expect(isInWords(args, id)).toBe(true);
    }
    const chinese = await waitingOnRestoreEvent(
      halfPlacedWeek({ chinese: true }),
      "删除周五的辅导课",
      "撤销",
      "restore-event-zh",
    );
    for (const args of shownArguments(chinese.card))
      expect(args).toEqual({ event: "Calculus tutorial", when: "3月15日周五 08:00–09:40" });
    expect(chinese.card.action_requests[0]!.description).toContain('恢复已删除的日程 "Calculus tutorial"');
  });
});

/** A native tool call reply. */
let calls = 0;
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `r${(calls += 1)}`, name, args, type: "tool_call" }] });

/**
 * A scripted Tempo on `week`: `removal` (a round of remove_task or remove_event calls, the step holding `packs`)
 * approved, then "undo that" (propose_undo, its candidate chosen), waiting on the undo's card of `restore`.
 */
async function waitingOnUndo(
  week: ScheduleState,
  removal: AIMessage,
  packs: string[],
  restore: string,
  thread: string,
) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", week);
  const step = (content: string) =>
    planDone([{ content, done_when: "it is done", packs }], { speak: "One step.", complexity: "simple" });
  const task = json({ intent: "task", reply: "", reason: "" });
  const checkpointer = new MemorySaver();
  const graph = buildTempoGraph({
    models: {
      default: scripted([task, task]),
      plan: scripted([step("Remove it"), step("Undo the removal")]),
      execute: scripted([
        removal,
        calling("done", { goal_check: "removed" }),
        calling("propose_undo"),
        calling("choose_candidate", { id: "u1" }),
        calling("done", { goal_check: "put back" }),
      ]),
      deliver: scripted(["Removed.", "Put back."]),
      toolCalling: "native",
    },
    domain: createScheduleDomain({ repository }),
    checkpointer,
    settings: { replanAfterStep: "never" },
  });
  const config = threadConfig(thread);
  let result = await graph.invoke({ messages: [new HumanMessage("Remove it")] }, config);
  for (let turn = 0; turn < 5 && interruptsOf(result).length > 0; turn++)
    result = await graph.invoke(
      resume({ decisions: cardOf(result)!.action_requests.map(() => ({ type: "approve" })) }),
      config,
    );
  const removed = await repository.load("user-1");
  result = await graph.invoke({ messages: [new HumanMessage("undo that")] }, config);
  for (let turn = 0; turn < 5 && cardOf(result)?.action_requests[0]?.name !== restore; turn++)
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  return { graph, repository, config, card: cardOf(result)!, result, checkpointer, removed };
}

/** {@link waitingOnUndo} of remove_task `taskId`, waiting on the restore_task card. */
async function waitingOnRestoreTask(taskId: string, week: ScheduleState, thread: string) {
  const undo = await waitingOnUndo(
    week,
    calling("remove_task", { task_id: taskId }),
    ["schedule.tasks", "schedule.life"],
    "restore_task",
    thread,
  );
  expect(hasTask(undo.removed, taskId)).toBe(false);
  return undo;
}

describe("an undo's restore_task card shows the task in words, not its record", () => {
  test("a pending task: its name, class, status and when; approve restores it, an edit is refused", async () => {
    const week = sampleWeek();
    const { graph, repository, config, card, result } = await waitingOnRestoreTask(
      "matrix-review",
      week,
      "restore-task-words",
    );
    expect(card.action_requests.map((request) => request.name)).toEqual(["restore_task"]);
    for (const args of shownArguments(card)) {
      expect(args).toEqual({
        task: "Matrix operations review",
        class: "Linear Algebra",
        status: "pending",
        when: "pending, no time yet",
      });
      expect(isInWords(args, "matrix-review")).toBe(true);
    }
    expect(card.review_configs[0]!.allowed_decisions).toEqual(["approve", "reject"]);
    expect(card.action_requests[0]!.description).toContain('Put back the removed task "Matrix operations review"');
    const call = proposedCall(result.messages, "restore_task");
    expect(call?.shown).toEqual(card.action_requests[0]!.args);
    expect((call?.applies.task as { id?: string }).id).toBe("matrix-review");
    const edit = { type: "edit", edited_action: { name: "restore_task", args: { task: "Matrix operations review" } } };
    await expect(graph.invoke(resume({ decisions: [edit] }), config)).rejects.toThrow(/edit/);
    expect(hasTask(await repository.load("user-1"), "matrix-review")).toBe(false);
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(byId(await repository.load("user-1"))).toEqual(byId(week));
  });

  test("a placed task: the restore shows words, the place after it its own editable arguments; both apply", async () => {
    const week = halfPlacedWeek();
    const placed = week.tasks.find((task) => task.source === "task_item" && task.status === "placed")!;
    const { graph, repository, config, card } = await waitingOnRestoreTask(placed.id, week, "restore-task-placed");
    expect(card.action_requests.map((request) => request.name)).toEqual(["restore_task", "place"]);
    expect(isInWords(card.action_requests[0]!.args, placed.id)).toBe(true);
    expect(card.action_requests[0]!.args).toMatchObject({ task: placed.name, status: "pending" });
    expect(card.action_request.args).toEqual(card.action_requests[0]!.args);
    // The place is an ordinary write: its arguments are its own, and it can be edited.
    expect(card.action_requests[1]!.args).toMatchObject({ task_id: placed.id });
    expect(card.review_configs.map((config) => config.allowed_decisions)).toEqual([
      ["approve", "reject"],
      ["approve", "edit", "reject"],
    ]);
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(byId(await repository.load("user-1"))).toEqual(byId(week));
  });
});

describe("an undo's card after a restart", () => {
  test("another process raises the same card in words from the checkpoint, and its approval restores once", async () => {
    const week = sampleWeek();
    const { repository, config, card, checkpointer } = await waitingOnRestoreTask("matrix-review", week, "restart");
    // A new process: the same checkpointer and repository, a fresh graph whose execute model only finishes.
    const restarted = buildTempoGraph({
      models: {
        default: scripted([]),
        plan: scripted([]),
        execute: scripted([calling("done", { goal_check: "put back" })]),
        deliver: scripted(["Put back."]),
        toolCalling: "native",
      },
      domain: createScheduleDomain({ repository }),
      checkpointer,
      settings: { replanAfterStep: "never" },
    });
    const waiting = await restarted.getState(config);
    const raised = waiting.tasks.flatMap((task) => task.interrupts)[0]?.value as RaisedCard;
    expect(shownArguments(raised)).toEqual(shownArguments(card));
    expect(isInWords(raised.action_requests[0]!.args, "matrix-review")).toBe(true);
    const done = await restarted.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    const back = await repository.load("user-1");
    expect(byId(back)).toEqual(byId(week));
    expect(back.tasks.filter((task) => task.id === "matrix-review")).toHaveLength(1);
  });
});

describe("a batch of restores answered one by one keeps its words", () => {
  test("an Inbox accept of the first restore applies it; the second comes back on the next card in words", async () => {
    const week = sampleWeek();
    const removeBoth = new AIMessage({
      content: "",
      tool_calls: [
        { id: "rm-1", name: "remove_event", args: { event_id: "fri-calculus-tutorial" }, type: "tool_call" },
        { id: "rm-2", name: "remove_event", args: { event_id: "fri-physics-lab" }, type: "tool_call" },
      ],
    });
    const undo = await waitingOnUndo(
      week,
      removeBoth,
      ["schedule.calendar", "schedule.life"],
      "restore_event",
      "restore-batch",
    );
    const { graph, repository, config } = undo;
    expect(hasTask(undo.removed, "fri-calculus-tutorial") || hasTask(undo.removed, "fri-physics-lab")).toBe(false);
    let result = undo.result;
    const card = cardOf(result)!;
    // Last write first: the lab comes back first, then the tutorial.
    expect(card.action_requests.map((request) => request.args.event)).toEqual(["Physics lab", "Calculus tutorial"]);
    for (const args of shownArguments(card)) expect(isInWords(args, "fri-")).toBe(true);
    // Agent Inbox's accept names the first write, echoing what the card showed of it: it alone applies.
    const accept = { type: "accept", args: { action: "restore_event", args: card.action_request.args } };
    result = await graph.invoke(resume(accept), config);
    const halfway = await repository.load("user-1");
    expect([hasTask(halfway, "fri-physics-lab"), hasTask(halfway, "fri-calculus-tutorial")]).toEqual([true, false]);
    const next = cardOf(result)!;
    expect(next.action_requests.map((request) => request.name)).toEqual(["restore_event"]);
    for (const args of shownArguments(next)) {
      expect(args).toEqual({ event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40" });
      expect(isInWords(args, "fri-calculus-tutorial")).toBe(true);
    }
    const again = { type: "accept", args: { action: "restore_event", args: next.action_request.args } };
    const done = await graph.invoke(resume(again), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(byId(await repository.load("user-1"))).toEqual(byId(week));
  });
});

describe("a candidate's write must say what its card shows", () => {
  test("one without cardArguments is a problem of its domain's packs", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    expect(packProblems(domain)).toEqual([]);
    const bare = {
      ...domain,
      tools: domain.tools.map((tool) => (tool.name === "restore_event" ? { ...tool, cardArguments: undefined } : tool)),
    };
    expect(packProblems(bare)).toEqual([
      'the tool "restore_event" is applied only as a candidate of "propose_undo" but has no cardArguments: its card would show its record',
    ]);
  });
});

describe("a card saved before the words", () => {
  test("a restore write with no shown words shows its arguments as it did, and takes the echo of them", () => {
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    const event = sampleWeek().tasks.find((task) => task.id === "fri-calculus-tutorial")!;
    const write = {
      id: "saved-1",
      name: "restore_event",
      arguments: { event },
      summary: 'Put back the removed event "Calculus tutorial"',
      reason: "",
    };
    const card = writeCard([write], { planSteps: [], currentStepId: null }, domain, "en");
    expect(card.action_requests[0]!.args).toEqual({ event });
    expect(card.review_configs[0]!.allowed_decisions).toEqual(["approve", "reject"]);
    const echo = { type: "accept", args: { action: "restore_event", args: { event } } };
    expect(readCardResume(writeCardOutline([write], domain), echo)).toEqual([{ type: "approve" }]);
    // With its words, the same write shows them, and an echo of the words is what the card takes.
    const shown = { ...write, shown: { event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40" } };
    expect(writeCard([shown], { planSteps: [], currentStepId: null }, domain, "en").action_requests[0]!.args).toEqual(
      shown.shown,
    );
    const words = { type: "accept", args: { action: "restore_event", args: shown.shown } };
    expect(readCardResume(writeCardOutline([shown], domain), words)).toEqual([{ type: "approve" }]);
  });
});
