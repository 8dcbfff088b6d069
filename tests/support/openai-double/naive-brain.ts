/**
 * A second scripted model for the double (issue 49 item 2's measurement): a model that does not reach for the
 * backend's candidates. On an execute step that arranges (its requirement or step says arrange / place / 安排) and
 * may write — `place` bound, or the candidates (an arranging step binds no hand-placing tool, but the request's pack
 * list names `place`, and a call to it brings its pack in) — it reads the week (`list_tasks` and `find_free` at once),
 * places every pending review greedily with `place` on the first free run long enough (all in one reply), verifies
 * with `get_overview`, then ends the step with `next_plan`. Every other request — chat, plan, deliver, a move, a
 * read — it answers as the offline policy does ({@link scheduleBrain}). (Until 2026-11-30 it acted only where `place`
 * was bound, so on an arranging step it answered as the offline policy and its figures were the policy's.)
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

/** The naive model: reads, places greedily, verifies; the offline policy elsewhere. */
export const naiveBrain: Brain = (request) => {
  const body = request.body;
  const messages = body.messages ?? [];
  const tools = new Set((body.tools ?? []).map((tool) => tool.function?.name ?? ""));
  const last = contentText(messages.filter((message) => message.role === "user").at(-1)?.content);
  const writes = tools.has("place") || tools.has("propose_arrangement");
  if (request.stage !== "execute" || !writes || !ARRANGES.test(last)) return scheduleBrain(request);
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
