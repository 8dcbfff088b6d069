/**
 * A model that places by hand, through the whole graph, on a week with class rules (the eval's `generated-rules`): its
 * greedy placings break a class's buffer, so the place tool refuses some of them, and the step ends with those
 * pending though they fit elsewhere. The refinement's listing, which otherwise leaves what is pending alone, places
 * them where they fit now (`retry_pending`): every review ends placed, each through a card. Before, the listing offered
 * moves only, and the answer named reviews "still pending" that fitted.
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { toolResultData } from "../../kernel/tool-results.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { SCHEDULE_REFINEMENT } from "../../tools/schedule/domain.js";
import type { TaskOutcomeRecord } from "../../kernel/state.js";
import { summaryInChinese } from "../../offline/schedule/replies.js";
import { pendingFitting } from "../../tools/schedule/arrangement.js";
import { createScheduleDomain, InMemoryScheduleRepository, type ScheduleState } from "../../tools/schedule/index.js";
import { approveEveryCard } from "../support/openai-double/drive.js";
import { greedyPlacements } from "../support/openai-double/naive-brain.js";
import { ruleWeek } from "../support/rule-weeks.js";
import { ReplyModel } from "../support/reply-model.js";
import { planDone, scripted, threadConfig } from "../support/scripted.js";
import { runTool } from "../schedule/support.js";

/**
 * A model that places every pending review of `week` greedily in its first reply; then, wherever the code's listing is
 * in view (nothing changed since), chooses its first candidate (unless it `ignoresListings`); otherwise ends the step.
 */
function handModel(week: ScheduleState, ignoresListings = false): ReplyModel {
  const calls = (call: number, list: Array<{ name: string; args: Record<string, unknown> }>) =>
    new AIMessage({
      content: "",
      tool_calls: list.map((each, index) => ({ id: `call-${call}-${index}`, ...each, type: "tool_call" })),
    });
  return new ReplyModel((messages, call) => {
    if (call === 1) {
      const listing = runTool("list_tasks", week, { status: "pending" }).content;
      const free = runTool("find_free", week, { min_length: 1 }).content;
      return calls(
        call,
        greedyPlacements(listing, free).map((place) => ({ name: place.name, args: place.arguments as never })),
      );
    }
    const listed = listingInView(messages);
    return !ignoresListings && listed && listed.length > 0
      ? calls(call, [{ name: "choose_candidate", args: { id: listed[0]!.id } }])
      : calls(call, [{ name: "next_plan", args: { goal_check: "every pending review that fits was placed" } }]);
  });
}

/** The candidates of the latest listing, when no change applied since it; else undefined. */
function listingInView(messages: readonly BaseMessage[]): Array<{ id: string }> | undefined {
  for (const message of [...messages].reverse()) {
    if (message.getType() !== "tool") continue;
    const data = toolResultData(message as ToolMessage) as { candidates?: Array<{ id: string }> } | undefined;
    if (!data) continue;
    return Array.isArray(data.candidates) ? data.candidates : undefined;
  }
  return undefined;
}

/** Tempo on the rule-bearing week with a placing-then-verifying plan (the refinement step added), `model` executing. */
async function handPlaced(model: ReplyModel, thread: string) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", WEEK());
  const graph = buildTempoGraph({
    models: {
      default: scripted([new AIMessage(JSON.stringify({ intent: "task", reply: "", reason: "" }))]),
      plan: scripted([
        planDone(
          [
            { content: "Place each pending review task into a free slot that fits it", done_when: "none is pending" },
            { content: "Verify the schedule", done_when: "the overview shows how many are pending" },
          ],
          { run_mode: "first_full" },
        ),
      ]),
      execute: model,
      deliver: scripted(["Done."]),
      toolCalling: "native",
    },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
  });
  const config = threadConfig(thread, "student");
  await graph.invoke({ messages: [new HumanMessage("arrange my reviews")] }, config);
  const cards = await approveEveryCard(graph, config, (answer) => graph.invoke(answer, config));
  const state = (await graph.getState(config)).values as {
    phase: string;
    planSteps: Array<{ content: string; summary?: string }>;
    messages: BaseMessage[];
    outcome: TaskOutcomeRecord | null;
  };
  return { cards, state, after: await repository.load("student") };
}

/** The eval's generated-rules week: nine reviews, class buffers, deadlines. */
const WEEK = () => ruleWeek(5);

test("reviews a hand placing left pending, refused by a class's buffer, are placed by the refinement: none left", async () => {
  const pendingAtStart = WEEK().tasks.filter((task) => task.source === "task_item" && task.status === "pending");
  const { cards, state, after } = await handPlaced(handModel(WEEK()), "hand-placed-rules");
  expect(state.phase).toBe("done");
  // The hand placing met refusals: some reviews were left pending after it.
  const refusedPlacings = state.messages.filter(
    (message) => message.getType() === "tool" && (message as ToolMessage).status === "error",
  );
  expect(refusedPlacings.length).toBeGreaterThan(0);
  const refinement = state.planSteps.find((step) => step.content === SCHEDULE_REFINEMENT.step.content);
  expect(refinement?.summary).toMatch(/\d+ more placed/);
  // Every review placed, each by an approved card's write.
  expect(after.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual([]);
  const placedByCards = new Set(
    cards.flatMap((requests) =>
      requests.flatMap((request) => {
        const args = request.args as { task_id?: string; moves?: Array<{ task_id: string }> };
        return [...(args.task_id ? [args.task_id] : []), ...(args.moves ?? []).map((move) => move.task_id)];
      }),
    ),
  );
  for (const task of pendingAtStart) expect(placedByCards.has(task.id)).toBe(true);
});

test("a model that passes the listing over leaves them pending: the closing check and the answer say they fit as the week stands", async () => {
  const { state, after } = await handPlaced(handModel(WEEK(), true), "hand-placed-ignoring");
  expect(state.phase).toBe("done");
  const pending = after.tasks.filter((task) => task.source === "task_item" && task.status === "pending");
  expect(pending.length).toBeGreaterThan(0);
  // Each still fits somewhere free (the data says so), so that is why it is open — not "… but Review 2 is at …".
  expect(pendingFitting(after).sort()).toEqual(pending.map((task) => task.id).sort());
  // The closing check is what the stored week shows, not the model's "every pending review that fits was placed".
  const verify = state.planSteps.find((step) => step.content === "Verify the schedule");
  expect(verify?.summary).toBe(
    `the schedule shows ${pending.length} review task(s) still pending; ${pending.length} of them fit somewhere free as the week stands`,
  );
  // In a Chinese conversation's offline answer, the same in Chinese.
  expect(summaryInChinese(verify!.summary!)).toBe(
    `日程显示还有 ${pending.length} 个复习任务待安排，其中 ${pending.length} 个按目前的日程放得下`,
  );
  expect(state.outcome?.stillOpen?.map((item) => [item.id, item.why])).toEqual(
    pending.map((task) => [
      task.id,
      "it fits as the week stands, but was not placed (a place tried for it was refused)",
    ]),
  );
});
