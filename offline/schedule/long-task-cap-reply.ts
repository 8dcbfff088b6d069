/**
 * The reply to a long task longer than one task can hold ("add a task: thesis, 100 hours, due Friday, to English": 134
 * slots of 45 minutes, and a task holds at most {@link MAX_TASK_SLOTS}): nothing is added, and the request is said
 * back as parts that fit, each with its own day. Before, a plan card was raised, and its step then failed with "the
 * number of slots asked for (134) is more than it can be: at most 96".
 */
import { say, weekdayName, type Language } from "../../contracts/language.js";
import { asWritten, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { taskParts } from "./long-task-slots.js";

type LongTask = Extract<ScheduleRequest, { kind: "add_long_task" }>;

/** The reply, in `language`; `message` gives the name and class as the user wrote them (the reader lowercases). */
export function longTaskCapReply(request: LongTask, message: string, language: Language): string {
  const name = asWritten(request.name, message);
  const said = request.classPhrase === undefined ? undefined : asWritten(request.classPhrase, message);
  const { hours, most, part } = taskParts(request.minutes);
  const dayEn = weekdayName(request.dueWeekday, "en");
  const dayZh = weekdayName(request.dueWeekday, "zh");
  return say(
    language,
    `"${name}" would take ${hours} hours, more than one task can hold (at most ${most} hours), so I added nothing. Add it in parts of at most ${most} hours, each with its own day it is due, e.g. "add a task: ${name} part 1, ${part} hours, due ${dayEn}, to ${said ?? "English"}".`,
    `“${name}”需要${hours}小时，超过了一个任务能容纳的上限（最多${most}小时），所以什么也没有添加。请分成每部分最多${most}小时、各有截止日的几部分来添加，例如“给${said ?? "英语"}添加任务：${name}第1部分，${part}小时，${dayZh}前”。`,
  );
}
