/**
 * Two more scripted models for the double (issue 49 item 2's measurement): models that do not reach for the backend's
 * candidates. On an execute step that arranges and may write — `place` bound, or the candidates (an arranging step
 * binds no hand-placing tool, but the request's pack list names `place`, and a call to it brings its pack in) — they
 * read the week (`list_tasks` and `find_free` at once), place every pending review greedily with `place` on the first
 * free run long enough (all in one reply), verify with `get_overview`, then end the step with `next_plan`. Every other
 * request — chat, plan, deliver, a move, a read — they answer as the offline policy does ({@link scheduleBrain}).
 *
 * - {@link naiveBrain}: a step arranges when its own text says so ("Place each pending review…", 安排); the refinement
 *   step ("Refine the week: choose the backend's best changes…"), whose listing the code makes, it answers as the
 *   policy does — it chooses from what is listed.
 * - {@link stubbornBrain}: a step arranges when the user's request says so too, so it reads, verifies and ends the
 *   refinement step as well, ignoring the listing in view (the naive model's figure until 2026-11-30).
 */
import { parseFreeRuns, parsePendingTasks } from "../../../offline/schedule/result-parsing.js";
import { contentText, scheduleBrain, type Brain, type BrainCall, type BrainReply } from "./brain.js";
import type { ChatMessage } from "./validation.js";

/** Words of a step that arranges. */
const ARRANGES = /\b(?:arrange|place)\b|安排/i;

/** The results of this step's tool calls, by tool name (the latest of each), in the request's messages. */
function toolResults(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  const results = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) if (call.id) names.set(call.id, call.function?.name ?? "");
    if (message.role === "tool" && message.tool_call_id)
      results.set(names.get(message.tool_call_id) ?? "", contentText(message.content));
  }
  return results;
}

/** Every pending review on the first free run long enough, in list order (runs shrink as they fill). */
export function greedyPlacements(listing: string, free: string): BrainCall[] {
  const runs = parseFreeRuns(free).map((run) => ({ ...run }));
  const calls: BrainCall[] = [];
  for (const task of parsePendingTasks(listing)) {
    const run = runs.find((candidate) => candidate.end - candidate.start + 1 >= task.duration);
    if (!run) continue;
    calls.push({ name: "place", arguments: { task_id: task.id, day: run.day, slot_start: run.start } });
    run.start += task.duration;
  }
  return calls;
}

/** The model that reads, places greedily and verifies on a step that `arranges` (its text, as the request shows it). */
function byHand(arranges: (requirement: string, step: string) => boolean): Brain {
  return (request) => {
    const body = request.body;
    const messages = body.messages ?? [];
    const tools = new Set((body.tools ?? []).map((tool) => tool.function?.name ?? ""));
    const last = contentText(messages.filter((message) => message.role === "user").at(-1)?.content);
    const step = /^Current step \(\d+ of \d+\): (.*)$/m.exec(last)?.[1] ?? "";
    const writes = tools.has("place") || tools.has("propose_arrangement");
    if (request.stage !== "execute" || !writes || !arranges(last, step)) return scheduleBrain(request);
    const results = toolResults(messages);
    const reply = (content: string, toolCalls: BrainCall[]): BrainReply => ({ content, toolCalls });
    if (!results.has("list_tasks") || !results.has("find_free"))
      return reply("Reading the week.", [
        { name: "list_tasks", arguments: { status: "pending" } },
        { name: "find_free", arguments: { min_length: 1 } },
      ]);
    if (!results.has("place")) {
      const places = greedyPlacements(results.get("list_tasks")!, results.get("find_free")!);
      if (places.length > 0) return reply(`Placing ${places.length} task(s).`, places);
    }
    if (!results.has("get_overview")) return reply("Checking the week.", [{ name: "get_overview", arguments: {} }]);
    return reply("", [{ name: "next_plan", arguments: { goal_check: "every pending review that fits was placed" } }]);
  };
}

/** The naive model: reads, places greedily, verifies where its step arranges; the offline policy elsewhere. */
export const naiveBrain: Brain = byHand((_requirement, step) => ARRANGES.test(step));

/** The stubborn model: as the naive one, also on every step of a request that arranges (the refinement's included). */
export const stubbornBrain: Brain = byHand((requirement) => ARRANGES.test(requirement));
