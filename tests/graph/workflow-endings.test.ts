/**
 * Issue 13's conversations on the schedule domain with the offline policy, as a new user would have them:
 * dropping a plan, honest endings, a clean start for each task, and TaskState's open loops.
 */
import { HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { Command, END, InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { callOutcomeOf } from "../../kernel/tool-results.js";
import { writesOnCard } from "../support/card-writes.js";
import { readExecutionState } from "../../server/execution-state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { episodesNamespace } from "../../memory/namespaces.js";
import { loadTaskState } from "../../memory/task-state.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import {
  checkScheduleInvariants,
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
} from "../../tools/schedule/index.js";
import { interruptsOf, resume, scripted, threadConfig, unpairedToolCalls } from "../support/scripted.js";

type Result = Record<string, unknown> & { messages: BaseMessage[] };

async function setup(options: { deliver?: string[]; week?: ReturnType<typeof sampleWeek> } = {}) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", options.week ?? sampleWeek());
  const domain = createScheduleDomain({ repository });
  const store = new InMemoryStore();
  const models = {
    default: new ScheduleOfflinePolicy(),
    ...(options.deliver ? { deliver: scripted(options.deliver) } : {}),
  };
  const graph = buildTempoGraph({ models, domain, checkpointer: new MemorySaver(), store });
  const pendingNames = async () =>
    (await repository.load("student")).tasks
      .filter((task) => task.source === "task_item" && task.status === "pending")
      .map((task) => task.name);
  return { repository, graph, store, pendingNames };
}

const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const accept = resume({ type: "accept", args: null });
const cardOf = (result: object) =>
  interruptsOf(result)[0]?.value as
    { action_request: { action: string; args: Record<string, unknown> }; action_requests: unknown[] } | undefined;
const lastText = (result: Result) => String(result.messages.at(-1)?.content);

/** Answers every remaining card with accept. */
async function acceptAll(
  graph: Awaited<ReturnType<typeof setup>>["graph"],
  config: ReturnType<typeof threadConfig>,
  result: object,
): Promise<Result> {
  let current = result;
  for (let turn = 0; turn < 30 && interruptsOf(current).length > 0; turn += 1)
    current = await graph.invoke(accept, config);
  return current as Result;
}

describe("dropping a plan", () => {
  test.each([
    ["a plain 取消", message("取消")],
    ["a plain no", message("no")],
    ["a plain cancel", message("Cancel.")],
    ["an ignore resume", resume({ type: "ignore", args: null })],
    ["a response that says cancel", resume({ type: "response", args: "cancel" })],
  ])(
    "%s on the plan card ends the task: chatting, nothing pending, a short answer, nothing changed",
    async (_name, answer) => {
      const { graph, repository, pendingNames } = await setup();
      const config = threadConfig(`drop-${_name}`, "student");
      const planned = await graph.invoke(message("Help me arrange next week's review"), config);
      expect(cardOf(planned)?.action_request.action).toBe("confirm_plan");
      const before = await repository.load("student");

      const dropped = (await graph.invoke(answer, config)) as Result;
      expect(interruptsOf(dropped)).toEqual([]);
      expect(dropped.phase).toBe("chatting");
      expect(dropped.pending).toBeNull();
      expect(dropped.outcome).toEqual({ kind: "dropped", reason: "you declined the plan" });
      // The answer follows the user's newest word that tells a language: 取消 is Chinese.
      expect(lastText(dropped)).toBe(
        _name === "a plain 取消"
          ? `已放弃"Help me arrange next week's review"（你没有接受计划）。没有做任何改动。`
          : `Dropped "Help me arrange next week's review" (you declined the plan). Nothing was changed.`,
      );
      expect((await graph.getState(config)).next).toEqual([]);
      expect((await readExecutionState(graph, config)).status).toBe("dropped");
      expect(await repository.load("student")).toEqual(before);
      expect(await pendingNames()).toHaveLength(8);

      // The next message is a new message, not feedback on a card nobody sees.
      const greeted = (await graph.invoke(message("hello"), config)) as Result;
      expect(interruptsOf(greeted)).toEqual([]);
      expect(lastText(greeted)).toContain("Tempo");
    },
  );

  test('a "yes" typed in Agent Chat UI while a write card is open: the tool answers it makes up for the open calls are dropped, the 8 writes apply and are answered by their real results', async () => {
    const { graph, pendingNames } = await setup();
    const config = threadConfig("chat-ui-yes", "student");
    await graph.invoke(message("Arrange my reviews"), config);
    await graph.invoke(accept, config);
    const calls = writesOnCard((await graph.getState(config)).values);
    expect(calls).toHaveLength(8);
    // Agent Chat UI's send (its ensureToolCallsHaveResponses): a made-up answer per open call, then the human message.
    const madeUp = calls.map((call, index) => ({
      type: "tool",
      tool_call_id: call.id,
      id: `do-not-render-${index}`,
      name: call.name,
      content: "Successfully handled tool call.",
    }));
    const done = (await graph.invoke(
      { messages: [...madeUp, { type: "human", content: "yes" }] } as never,
      config,
    )) as Result;
    expect(await pendingNames()).toEqual([]);
    const texts = done.messages.map((item) => String(item.content));
    expect(texts.filter((text) => text === "Successfully handled tool call.")).toEqual([]);
    expect(done.messages.some((item) => madeUp.some((stand) => stand.id === item.id))).toBe(false);
    const answers = (done.messages as ToolMessage[]).filter(
      (item) => item.getType() === "tool" && calls.some((call) => call.id === item.tool_call_id),
    );
    expect(answers).toHaveLength(8);
    expect(answers.every((item) => callOutcomeOf(item) === "applied")).toBe(true);
    // The run goes on to the refinement step, which finds nothing to change (the placements were polished), and the
    // task ends: no card, no call left open.
    expect(writesOnCard((await graph.getState(config)).values)).toEqual([]);
    expect(done.phase).toBe("done");
    expect(unpairedToolCalls(done.messages)).toEqual([]);
  });

  test.each([
    ["accept all", "applied", 8],
    ["全部接受", "applied", 8],
    ["approve all.", "applied", 8],
    ["reject all", "declined", 0],
    ["none of them", "declined", 0],
    ["全部拒绝", "declined", 0],
  ] as const)(
    'a batch card answered by the message "%s": every write %s, none read as feedback',
    async (reply, outcome, applied) => {
      const { graph, pendingNames } = await setup();
      const config = threadConfig(`batch-reply-${reply}`, "student");
      await graph.invoke(message("Arrange my reviews"), config);
      await graph.invoke(accept, config);
      const calls = writesOnCard((await graph.getState(config)).values);
      expect(calls).toHaveLength(8);
      const after = (await graph.invoke(message(reply), config)) as Result;
      const answers = (after.messages as ToolMessage[]).filter(
        (item) => item.getType() === "tool" && calls.some((call) => call.id === item.tool_call_id),
      );
      expect(answers.map((item) => callOutcomeOf(item))).toEqual(calls.map(() => outcome));
      expect(8 - (await pendingNames()).length).toBe(applied);
      // Not feedback: no answer quotes the words typed.
      expect(answers.some((item) => String(item.content).includes(reply))).toBe(false);
    },
  );

  test("a run whose command is goto END (Agent Chat UI's Mark as Resolved) ends the thread as updateState as END does; an update beside it is refused", async () => {
    const { graph } = await setup();
    const config = threadConfig("end-by-command", "student");
    await graph.invoke(message("Arrange my reviews"), config);
    await graph.invoke(accept, config);
    const waiting = await graph.getState(config);
    expect(writesOnCard(waiting.values)).toHaveLength(8);
    await expect(
      graph.invoke(new Command({ goto: END, update: { pending: null } }) as never, config),
    ).rejects.toMatchObject({ code: "STATE_CHANGE_REFUSED" });
    await expect(graph.invoke(new Command({ goto: "execute" }) as never, config)).rejects.toMatchObject({
      code: "STATE_CHANGE_REFUSED",
    });
    expect((await graph.getState(config)).values).toEqual(waiting.values);

    await graph.invoke(new Command({ goto: END }) as never, config);
    const ended = await graph.getState(config);
    expect(ended.next).toEqual([]);
    expect(ended.tasks.flatMap((task) => task.interrupts)).toEqual([]);
    expect(ended.values).toMatchObject({
      phase: "chatting",
      pending: null,
      outcome: { kind: "dropped", reason: "the thread was ended from the client" },
    });
    expect(unpairedToolCalls(ended.values.messages)).toEqual([]);
    // Another user cannot end it.
    await expect(
      graph.invoke(new Command({ goto: END }) as never, threadConfig("end-by-command", "mallory")),
    ).rejects.toMatchObject({ code: "THREAD_ACCESS_DENIED" });
  });

  test("a client ending the thread (updateState as END, Agent Inbox's Mark as resolved) clears the pending card", async () => {
    const { graph, store, pendingNames } = await setup();
    const config = threadConfig("end-thread", "student");
    await graph.invoke(message("Arrange my reviews"), config);
    const atWrite = await graph.invoke(accept, config);
    expect(cardOf(atWrite)?.action_request.action).toBe("place");
    const onCard = new Set(writesOnCard((await graph.getState(config)).values).map((write) => write.id));
    expect(onCard.size).toBe(8);

    await graph.updateState(config, null, END);
    const ended = await graph.getState(config);
    expect(ended.next).toEqual([]);
    expect(ended.tasks.flatMap((task) => task.interrupts)).toEqual([]);
    expect(ended.values).toMatchObject({
      phase: "chatting",
      pending: null,
      outcome: { kind: "dropped", reason: "the thread was ended from the client" },
    });
    // The card's proposal stays in the conversation, each of its 8 calls answered as not run: no call is left open.
    const closing = (ended.values.messages as ToolMessage[]).filter(
      (item) => item.getType() === "tool" && onCard.has(item.tool_call_id),
    );
    expect(closing).toHaveLength(8);
    expect(
      closing.every(
        (item) =>
          item.status === "error" &&
          callOutcomeOf(item) === "held" &&
          String(item.content).startsWith("Left unanswered: the task was dropped"),
      ),
    ).toBe(true);
    expect(unpairedToolCalls(ended.values.messages)).toEqual([]);
    expect(String((ended.values.messages as BaseMessage[]).at(-1)!.content)).toContain("Nothing was changed.");
    expect((await readExecutionState(graph, config)).status).toBe("dropped");
    expect(await pendingNames()).toHaveLength(8);

    // The next message is classified afresh: a greeting is answered, no card comes back.
    const next = (await graph.invoke(message("hello"), config)) as Result;
    expect(interruptsOf(next)).toEqual([]);
    expect(next.phase).toBe("chatting");
    expect(lastText(next)).toContain("Tempo");
    // The dropped task is remembered as dropped when the thread's next invocation ends.
    expect((await store.search(episodesNamespace("student"))).map((item) => item.value.status)).toEqual(["dropped"]);
  });
});

/** A v1 resume declining the first write of the pending card ("Not this one.") and approving the rest. */
function declineFirst(result: object) {
  const count = cardOf(result)?.action_requests.length ?? 1;
  return {
    decisions: [
      { type: "reject", message: "Not this one." },
      ...Array.from({ length: count - 1 }, () => ({ type: "approve" })),
    ],
  };
}

describe("honest endings", () => {
  test("a rejected placement: the task is partial, the answer names the review still pending and why, memory records it", async () => {
    const { graph, store, pendingNames } = await setup();
    const config = threadConfig("partial", "student");
    await graph.invoke(message("Help me arrange next week's review"), config);
    const firstCard = await graph.invoke(accept, config);
    const rejectedId = String(cardOf(firstCard)?.action_request.args.task_id);
    // The week's placements come on one batch card: the first is declined, the others approved.
    const final = await acceptAll(graph, config, await graph.invoke(resume(declineFirst(firstCard)), config));

    const [pending] = await pendingNames();
    expect(await pendingNames()).toHaveLength(1);
    expect(final.phase).toBe("done");
    expect(final.outcome).toEqual({
      kind: "partial",
      reason: `every step finished, but 1 item(s) are still pending: ${pending}`,
      stillOpen: [{ id: rejectedId, name: pending, why: "you declined the proposed change" }],
    });
    const answer = String(final.finalAnswer);
    expect(answer).not.toContain("Your review week is arranged.");
    expect(answer.split("\n")[0]).toBe("Your review week is partly arranged: 1 review task(s) are still pending.");
    expect(answer).toContain(`Still pending: ${pending} (${rejectedId}) — you declined the proposed change`);
    expect((await readExecutionState(graph, config)).status).toBe("partial");
    expect(unpairedToolCalls(final.messages)).toEqual([]);
    // Each write's tool message records what happened to it, as data: the declined one and the applied ones.
    const writes = (final.messages as BaseMessage[]).filter(
      (message) => message.getType() === "tool" && (message as ToolMessage).name === "place",
    );
    expect(writes.map((message) => callOutcomeOf(message)).sort()).toEqual([
      ...Array(writes.length - 1).fill("applied"),
      "declined",
    ]);

    const episodes = await store.search(episodesNamespace("student"));
    expect(episodes.map((item) => item.value.status)).toEqual(["partial"]);
    const taskState = await loadTaskState(store, "student");
    expect(taskState.openLoops).toEqual([
      `"Help me arrange next week's review" ended partial; still pending: ${pending}`,
    ]);
  });

  test("a deliver model that claims more than happened is replaced by the facts", async () => {
    const { graph, pendingNames } = await setup({
      deliver: ["All done: your week is arranged and every review has a place."],
    });
    const config = threadConfig("overclaim", "student");
    await graph.invoke(message("Arrange my reviews"), config);
    const batch = await graph.invoke(accept, config);
    const final = await acceptAll(graph, config, await graph.invoke(resume(declineFirst(batch)), config));
    const [pending] = await pendingNames();
    expect(final.finalAnswer).not.toContain("All done");
    expect(String(final.finalAnswer).split("\n\n").slice(0, 2)).toEqual([
      "Task: Arrange my reviews",
      `Outcome: partial — every step finished, but 1 item(s) are still pending: ${pending}`,
    ]);
    expect(final.finalAnswer).toContain(`Still pending: ${pending}`);
  });

  test("a review no free slot fits: the task is partial and the answer says which and why", async () => {
    const week = sampleWeek();
    const tooLong = week.tasks.find((task) => task.source === "task_item")!;
    // Longer than any free run of the week.
    if (tooLong.source === "task_item") tooLong.duration = 11;
    const { graph, pendingNames } = await setup({ week });
    const config = threadConfig("no-fit", "student");
    const final = await acceptAll(graph, config, await graph.invoke(message("Arrange my reviews"), config));
    expect(await pendingNames()).toEqual([tooLong.name]);
    expect(final.outcome).toMatchObject({
      kind: "partial",
      reason: `every step finished, but 1 item(s) are still pending: ${tooLong.name}`,
      stillOpen: [{ id: tooLong.id, name: tooLong.name, why: expect.stringMatching(/no free slot fits/) }],
    });
    expect(String(final.finalAnswer).split("\n")[0]).toBe(
      "Your review week is partly arranged: 1 review task(s) are still pending.",
    );
    expect(final.finalAnswer).toContain(`Still pending: ${tooLong.name} (${tooLong.id}) — no free slot fits`);
  });

  test("a week fully arranged is told as completed", async () => {
    const { graph, pendingNames } = await setup();
    const config = threadConfig("complete", "student");
    const final = await acceptAll(graph, config, await graph.invoke(message("Arrange my reviews"), config));
    expect(await pendingNames()).toEqual([]);
    // Place, refine, verify.
    expect(final.outcome).toEqual({ kind: "completed", reason: "all 3 step(s) done" });
    expect(String(final.finalAnswer).split("\n")[0]).toBe("Your review week is arranged.");
  });
});

describe("each task starts clean", () => {
  test("a review rejected in one task is proposed again by the next task, whose working memory starts empty", async () => {
    const { graph, repository, store, pendingNames } = await setup();
    const config = threadConfig("clean-start", "student");
    await graph.invoke(message("Arrange my reviews"), config);
    const firstCard = await graph.invoke(accept, config);
    const rejectedId = String(cardOf(firstCard)?.action_request.args.task_id);
    // "no" on a write card declines it; the policy puts the task on its skip list (in the working memory).
    const first = await acceptAll(graph, config, await graph.invoke(message("no"), config));
    // "no" declined the whole batch card: the task changed nothing, and says so.
    expect(first.outcome).toMatchObject({
      kind: "failed",
      reason: "nothing was changed: you declined all 8 changes it proposed",
    });
    expect((first.workingMemory as { content: string }).content).toContain(`Skip tasks: ${rejectedId}`);

    const planned = (await graph.invoke(message("Place the remaining review too"), config)) as Result;
    expect(planned).toMatchObject({
      phase: "waiting_confirm",
      roundsUsed: 0,
      consecutiveCorrections: 0,
      outcome: null,
      stepSetbacks: { toolErrors: 0, rejections: 0 },
    });
    expect(planned.workingMemory).toEqual({ content: "", updatedInRound: 0, updatedAt: null });
    const card = await graph.invoke(accept, config);
    expect(cardOf(card)?.action_request).toMatchObject({ action: "place", args: { task_id: rejectedId } });
    const second = await acceptAll(graph, config, card);
    expect(await pendingNames()).toEqual([]);
    // Place, refine, verify (a whole-week arrange refines after placing).
    expect(second.outcome).toEqual({ kind: "completed", reason: "all 3 step(s) done" });
    expect(checkScheduleInvariants(await repository.load("student"))).toEqual([]);

    // The later task finished what the first left open: its open loop is closed.
    expect((await loadTaskState(store, "student")).openLoops).toEqual([]);
  });
});
