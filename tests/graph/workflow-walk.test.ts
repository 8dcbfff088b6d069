/**
 * Property: random walks of what users do — new requests, small talk, accept, reject, ignore, "取消", edits,
 * retries, /clear, a client ending the thread — on the real graph with the offline policy never leave a
 * thread stuck (it always shows a card, or rests with an answer), and every task ends in one of the four
 * outcomes. The schedule stays sound throughout.
 */
import { HumanMessage } from "@langchain/core/messages";
import { END, InMemoryStore, MemorySaver } from "@langchain/langgraph";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { TempoState } from "../../kernel/state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { OFFLINE_PLAN_STEPS, ScheduleOfflinePolicy } from "../../tools/schedule/offline-policy.js";
import {
  checkScheduleInvariants,
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
} from "../../tools/schedule/index.js";
import { resume, threadConfig } from "../support/scripted.js";

const ACTIONS = ["task", "hello", "accept", "reject", "ignore", "cancel", "edit", "end", "clear", "retry"] as const;
type Action = (typeof ACTIONS)[number];
const OUTCOMES = ["completed", "partial", "failed", "dropped"];

test("random walks of user actions never leave a thread stuck, and every task ends in one of four outcomes", async () => {
  let walk = 0;
  // What the walks reached, so the property is known to have exercised the machine.
  const seen = { cards: new Set<string>(), outcomes: new Set<string>() };
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...ACTIONS), { minLength: 1, maxLength: 9 }),
      fc.constantFrom(30, 5),
      async (actions, maxRounds) => {
        const repository = new InMemoryScheduleRepository();
        await repository.seed("walker", sampleWeek());
        const graph = buildTempoGraph({
          models: { default: new ScheduleOfflinePolicy() },
          domain: createScheduleDomain({ repository }),
          checkpointer: new MemorySaver(),
          // With a store, every ending also goes through memorize's episode and TaskState updates.
          store: new InMemoryStore(),
          settings: { maxRounds },
        });
        const config = threadConfig(`walk-${(walk += 1)}`, "walker");
        const message = (text: string) => graph.invoke({ messages: [new HumanMessage(text)] }, config);

        for (const action of actions) {
          const before = await graph.getState(config);
          const card = before.tasks.flatMap((task) => task.interrupts)[0]?.value as ShownCard | undefined;
          await perform(action, card, {
            message,
            resume: (value) => graph.invoke(resume(value), config),
            end: () => graph.updateState(config, null, END),
            started: Boolean(before.createdAt),
          });

          const snapshot = await graph.getState(config);
          const values = snapshot.values as TempoState;
          const interrupts = snapshot.tasks.flatMap((task) => task.interrupts);
          if (interrupts.length > 0) {
            // A card or a question waits, and the state says what it waits on.
            expect(interrupts).toHaveLength(1);
            expect(values.pending).not.toBeNull();
            seen.cards.add(values.pending!.kind);
          } else if (snapshot.createdAt) {
            // At rest: nothing pending, no task in progress, and the last word is the assistant's.
            expect(snapshot.next).toEqual([]);
            expect(values.pending).toBeNull();
            expect(["chatting", "done"]).toContain(values.phase);
            expect(values.messages.at(-1)?.getType()).toBe("ai");
            // A task that existed has ended in one of the four outcomes.
            if (values.goal !== "") expect(OUTCOMES).toContain(values.outcome?.kind);
            if (values.outcome) seen.outcomes.add(values.outcome.kind);
          }
          expect(checkScheduleInvariants(await repository.load("walker"))).toEqual([]);
        }
      },
    ),
    {
      numRuns: 16,
      // Always walked too, so the coverage checked below never depends on chance: a write card, a drop, a spent budget,
      // an edited plan followed by an edited batch card.
      examples: [
        [["task", "accept", "accept", "reject", "accept"], 30],
        [["task", "edit", "edit"], 30],
        [["task", "cancel", "hello"], 30],
        [["task", "accept", "accept"], 5],
      ],
    },
  );
  // Plan and write cards are always seen; a question is a legitimate pause too (a revised plan whose tasks match
  // nothing asks which tasks are meant), never any other kind.
  expect([...seen.cards]).toEqual(expect.arrayContaining(["confirm_plan", "confirm_tool"]));
  for (const kind of seen.cards) expect(["confirm_plan", "confirm_tool", "ask_user"]).toContain(kind);
  expect(seen.outcomes.size).toBeGreaterThanOrEqual(2);
});

interface Driver {
  message(text: string): Promise<unknown>;
  resume(value: unknown): Promise<unknown>;
  end(): Promise<unknown>;
  started: boolean;
}

/** What the walk reads of a card: its legacy action request, and its action requests (several on a batch card). */
interface ShownCard {
  action_request: { action: string; args: Record<string, unknown> };
  action_requests: Array<{ name: string; args: Record<string, unknown> }>;
}

/** Does what a user would do with `action`, given the card the thread shows (if any). */
async function perform(action: Action, card: ShownCard | undefined, driver: Driver): Promise<void> {
  // A question takes text: whatever the user does at it, they answer it (the question asks which tasks are meant).
  const question = card?.action_requests[0]?.name === "ask_user";
  if (question && ["accept", "reject", "ignore", "edit"].includes(action)) {
    return void (await driver.resume({
      type: "response",
      args: action === "accept" || action === "edit" ? "all of them" : "Not this one.",
    }));
  }
  switch (action) {
    case "task":
      return void (await driver.message("Arrange my reviews"));
    case "hello":
      return void (await driver.message("hello"));
    case "accept":
      return void (await (card ? driver.resume({ type: "accept", args: null }) : driver.message("yes")));
    case "reject":
      return void (await (card
        ? driver.resume({ type: "response", args: "Not this one." })
        : driver.message("Not this one.")));
    case "ignore":
      return void (await (card ? driver.resume({ type: "ignore", args: null }) : driver.message("no")));
    case "cancel":
      return void (await driver.message("取消"));
    case "edit":
      if (card?.action_request.action === "confirm_plan") {
        return void (await driver.resume({
          type: "edit",
          args: { action: "confirm_plan", args: { plan_steps: OFFLINE_PLAN_STEPS.slice(1) } },
        }));
      }
      // A batch card takes one response per write (a legacy edit names one write): each write edited as shown.
      if (card && card.action_requests.length > 1)
        return void (await driver.resume(
          card.action_requests.map((request) => ({ type: "edit", args: { action: request.name, args: request.args } })),
        ));
      if (card)
        return void (await driver.resume({
          type: "edit",
          args: { action: card.action_request.action, args: card.action_request.args },
        }));
      return void (await driver.message("Arrange my reviews, but verify first"));
    case "end":
      if (driver.started) await driver.end();
      return;
    case "clear":
      return void (await driver.message("/clear"));
    case "retry":
      return void (await driver.message("try again"));
  }
}
