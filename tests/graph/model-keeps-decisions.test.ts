/**
 * A model's own calls keep to what the user decided on the task's cards (issue 46, item 4), through the graph with a
 * scripted model: after "Friday is my day off" ("周五休息"), a `place`, `move` or `batch_move` of its own onto Friday
 * is refused with the reason ("Friday is your day off (you said so in this task …)"), and a `propose_arrangement` of
 * its own avoids Friday; a review whose card the user edited stays where they put it; a place rejected for a review
 * is not proposed again for it.
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { asCard } from "../../contracts/cards.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import { createScheduleDomain, InMemoryScheduleRepository } from "../../tools/schedule/index.js";
import { interruptsOf, planDone, resume, scripted, threadConfig } from "../support/scripted.js";
import { halfPlacedWeek, placeOf } from "./support/offline-conversation.js";

/** Where the user puts linked-list-exercises by editing its placement: Thursday (day 4), slot 7. */
const EDITED = { task_id: "linked-list-exercises", day: 4, slot_start: 7 };

let callCount = 0;
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `own-${(callCount += 1)}`, name, args, type: "tool_call" }] });

/** The result of each call of `name` among `messages`, in order. */
function resultsOf(messages: BaseMessage[], name: string): ToolMessage[] {
  return messages.filter(
    (message): message is ToolMessage => message.getType() === "tool" && (message as ToolMessage).name === name,
  );
}

/** What the user answers on each write of a card: the request's args → a decision. */
type Answer = (args: Record<string, unknown>) => Record<string, unknown>;

/**
 * Runs "arrange my reviews" on the half-placed week with the execute model's calls `execute` (after the first
 * proposal, which it chooses), answering the first card with `first` and every later one with approve.
 */
async function run(request: string, chinese: boolean, first: Answer, execute: AIMessage[]) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", halfPlacedWeek({ chinese }));
  const step = { content: "Place the pending reviews", done_when: "none is pending" };
  const graph = buildTempoGraph({
    models: {
      default: scripted([new AIMessage(JSON.stringify({ intent: "task", reply: "", reason: "" }))]),
      plan: scripted([planDone([step], { run_mode: "first_full" })]),
      execute: scripted([calling("propose_arrangement"), calling("choose_candidate", { id: "a1" }), ...execute]),
      deliver: scripted(["Done."]),
      toolCalling: "native",
    },
    // No refinement step: the calls tested are the model's own in the placing step.
    domain: createScheduleDomain({ repository, refine: false }),
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
  });
  const config = threadConfig(`own-${Math.random().toString(36).slice(2)}`);
  let result = await graph.invoke({ messages: [new HumanMessage(request)] }, config);
  result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  const card = asCard(interruptsOf(result)[0]!.value)!;
  result = await graph.invoke(resume({ decisions: card.action_requests.map((entry) => first(entry.args)) }), config);
  for (let turn = 0; turn < 6 && interruptsOf(result).length > 0; turn += 1)
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  return { result, schedule: await repository.load("user-1") };
}

describe("a model's own writes and searches keep to the task's card decisions", () => {
  test.each([
    ["Friday is my day off", "Arrange my reviews", false],
    ["周五休息", "帮我安排复习", true],
  ])(
    'after "%s": place, move and batch_move onto Friday are refused with the reason, propose_arrangement avoids Friday, the edited review stays',
    async (feedback, request, chinese) => {
      const { result, schedule } = await run(
        request,
        chinese,
        (args) => {
          // The first proposal: derivative-drills on Friday (day 5, slot 9), linked-list-exercises on Wednesday.
          if (args.task_id === "derivative-drills") {
            expect(args.day).toBe(5);
            return { type: "reject", message: feedback };
          }
          if (args.task_id === EDITED.task_id) return { type: "edit", edited_action: { name: "place", args: EDITED } };
          return { type: "approve" };
        },
        [
          // Another free Friday place for the rejected review, then the edited one moved, by hand.
          calling("place", { task_id: "derivative-drills", day: 5, slot_start: 11 }),
          calling("move", { task_id: EDITED.task_id, day: 2, slot_start: 7 }),
          calling("propose_arrangement"),
          // A review this task placed (binary-tree-review, Monday) moved onto Friday with batch_move.
          calling("batch_move", { moves: [{ task_id: "binary-tree-review", day: 5, slot_start: 10 }] }),
          calling("choose_candidate", { id: "a1" }),
          calling("next_plan", { goal_check: "placed" }),
        ],
      );
      const dayOff = `Friday is your day off (you said so in this task: "${feedback}")`;
      const [place] = resultsOf(result.messages, "place").filter((message) =>
        String(message.content).includes("day 5"),
      );
      expect(String(place!.content)).toContain(dayOff);
      expect(String(place!.content)).toContain("Nothing was changed");
      const [move] = resultsOf(result.messages, "move");
      expect(String(move!.content)).toMatch(
        /the user put linked-list-exercises on day 4 from slot 7 themselves \(they edited its card in this task\)/,
      );
      const [batch] = resultsOf(result.messages, "batch_move");
      expect(String(batch!.content)).toContain(dayOff);
      // The model's own proposal keeps off Friday: derivative-drills goes elsewhere.
      const [, second] = resultsOf(result.messages, "propose_arrangement");
      const listing = second!.artifact.data as ScheduleListing;
      const targets = listing.candidates.flatMap((candidate) => candidate.writes.map((write) => write.arguments));
      expect(targets.map((target) => target.task_id)).toContain("derivative-drills");
      expect(targets.filter((target) => target.day === 5)).toEqual([]);
      // Nothing went to Friday; the edit stands; the rejected review went elsewhere.
      expect(placeOf(schedule, EDITED.task_id)).toBe("day 4 slots 7-8");
      expect(placeOf(schedule, "binary-tree-review")).toMatch(/^day 1 slots 9-/);
      expect(placeOf(schedule, "derivative-drills")).toMatch(/^day [1-46-7] /);
      expect(result.phase).toBe("done");
    },
  );

  test.each([
    ["", "Arrange my reviews", false],
    ["这个时间不行", "帮我安排复习", true],
  ])(
    'a place rejected for a review ("%s") is refused when the model proposes it again; another place on the same day is not',
    async (feedback, request, chinese) => {
      const { result, schedule } = await run(
        request,
        chinese,
        (args) =>
          args.task_id === "derivative-drills"
            ? { type: "reject", ...(feedback === "" ? {} : { message: feedback }) }
            : { type: "approve" },
        [
          calling("place", { task_id: "derivative-drills", day: 5, slot_start: 9 }),
          calling("place", { task_id: "derivative-drills", day: 5, slot_start: 11 }),
          calling("next_plan", { goal_check: "placed" }),
        ],
      );
      const [again, other] = resultsOf(result.messages, "place").filter((message) =>
        String(message.content).includes("derivative-drills"),
      );
      expect(String(again!.content)).toMatch(
        /^Error: the user rejected derivative-drills on day 5 from slot 9 in this task\b.*Nothing was changed/,
      );
      expect(String(other!.content)).not.toMatch(/^Error/);
      expect(placeOf(schedule, "derivative-drills")).toMatch(/^day 5 slots 11-/);
      expect(result.phase).toBe("done");
    },
  );
});
