/**
 * Tool activity in people's words for the terminal (issue 48): what the agent is doing ("looking for the best
 * arrangement", "Place "Matrix operations review" on Tue 12 Mar, 16:00–17:40") and what came back, with tasks by
 * name and places by date and clock time — in the user's language. Ids, tool names and JSON arguments are the
 * debug view's (`--verbose`, `/debug`).
 */
import { say, type Language } from "../contracts/language.js";
import { describeScheduleCall } from "../tools/schedule/describe-call.js";
import { readableScheduleText } from "../tools/schedule/readable.js";
import type { ScheduleListing } from "../tools/schedule/candidates.js";
import type { ScheduleState } from "../tools/schedule/state.js";

/** What a read or a step-control call does, said as an activity. */
const ACTIVITY: Readonly<Record<string, readonly [english: string, chinese: string]>> = {
  propose_arrangement: ["looking for the best arrangement of your pending reviews", "为待安排的复习寻找最佳安排"],
  propose_candidates: ["looking for changes that make the week healthier", "寻找能让这一周更健康的调整"],
  analyze_health: ["checking how healthy the week is", "检查这一周的健康度"],
  get_overview: ["reading your week", "查看你的一周"],
  list_tasks: ["listing your tasks", "列出你的任务"],
  get_task_info: ["reading a task", "查看一个任务"],
  find_free: ["looking for free time", "查找空闲时间"],
  query_range: ["reading part of your week", "查看一周中的一段"],
  estimate: ["estimating how long it takes", "估计所需时间"],
  export_calendar: ["writing your week as a calendar file", "把你的一周写成日历文件"],
  import_calendar: ["importing your calendar", "导入你的日历"],
  roll_window: ["moving on to the next week", "进入下一周"],
  add_task: ["adding a task", "添加任务"],
  update_task: ["changing a task", "修改任务"],
  remove_task: ["removing a task", "删除任务"],
  upsert_task_class: ["saving a task class", "保存课程类别"],
  list_todos: ["reading your to-do list", "查看待办清单"],
  add_todo: ["adding a to-do", "添加待办"],
  remove_todo: ["removing a to-do", "删除待办"],
  retrieve_facts: ["recalling what I know about you", "回想关于你的信息"],
  recall_episodes: ["recalling earlier tasks", "回想以前的任务"],
  update_working_memory: ["noting where the task stands", "记下任务进展"],
  context_tools_add: ["getting the tools this step needs", "准备这一步需要的工具"],
  context_tools_remove: ["putting tools away", "收起不再需要的工具"],
  execute_decision: ["deciding the step's next move", "决定这一步的下一步"],
};

/** A tool call as an activity line's text: a write described with names and dates, a read by what it does. */
export function describeToolCall(
  name: string,
  args: Record<string, unknown>,
  language: Language,
  state?: ScheduleState,
): string {
  const write = state === undefined ? undefined : describeScheduleCall(state, name, args, language);
  if (write !== undefined) return write;
  const activity = ACTIVITY[name];
  if (activity) return say(language, activity[0], activity[1]);
  return name.replace(/_/g, " ");
}

/**
 * A tool result's first line as a person reads it: names and dates instead of ids and day numbers. A listing of
 * candidates (its `data`) says the week's score now and what the best proposal would make it, so the score is not
 * read as the proposal's.
 */
export function describeToolResult(content: string, data: unknown, language: Language, state?: ScheduleState): string {
  const listing = listingOf(data);
  if (listing) {
    const [best] = listing.candidates;
    if (best)
      return say(
        language,
        `the week scores ${listing.score}/100 now; the best proposal (${best.summary}) would make it ${best.scoreAfter}`,
        `这一周现在 ${listing.score}/100 分；最佳方案（${best.summary}）可以提高到 ${best.scoreAfter}`,
      );
    return say(
      language,
      `the week scores ${listing.score}/100; no change raises it`,
      `这一周 ${listing.score}/100 分；没有能提高它的调整`,
    );
  }
  const [first = "", ...rest] = content.split("\n");
  const readable = readableScheduleText(first, language, state);
  return rest.length > 0 ? `${readable} …` : readable;
}

/** A schedule listing (propose_arrangement, propose_candidates), or undefined for any other data. */
function listingOf(data: unknown): Pick<ScheduleListing, "score" | "candidates"> | undefined {
  const listing = data as Partial<ScheduleListing> | undefined;
  return typeof listing?.score === "number" && Array.isArray(listing.candidates)
    ? (listing as ScheduleListing)
    : undefined;
}
