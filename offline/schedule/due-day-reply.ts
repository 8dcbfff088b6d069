/**
 * The reply to a long task said whole but for the day it is due ("add a task: thesis, 100 hours, to English",
 * "给英语添加任务：论文，100小时"): a long task is spread over the days before its deadline, so nothing is added, and the
 * request is said back whole with a day as an example — one the reader reads ("…, due Friday, to English",
 * "给英语添加任务：…，周五前"). Before, the generic "I can't tell what to do" list. A task longer than one task holds is
 * said so too, and the example is its first part that fits ("thesis part 1, 50 hours"): the example, said as given,
 * adds a task (before, it got the reply that the task was too long, a second step).
 */
import { say, type Language } from "../../contracts/language.js";
import { asWritten } from "../../tools/schedule/request-parsing.js";
import { isOverTaskCap, taskParts } from "./long-task-slots.js";

/** What the reader gave of the request (`why: "no_due_day"`). */
export interface NoDueDay {
  name: string;
  minutes: number;
  classPhrase?: string;
}

/** The reply, in `language`; `message` gives the name and class as the user wrote them (the reader lowercases). */
export function dueDayReply(request: NoDueDay, message: string, language: Language): string {
  const name = asWritten(request.name, message);
  const said = request.classPhrase === undefined ? undefined : asWritten(request.classPhrase, message);
  const ask = say(
    language,
    `A long task is spread over the days before it is due, and "${name}" has no day it is due, so I added nothing. Say it with the day${said === undefined ? " and its class" : ""}`,
    `长任务要分到截止日之前的几天里，而“${name}”没有说哪天截止，所以什么也没有添加。请带上截止日${said === undefined ? "和课程" : ""}`,
  );
  if (isOverTaskCap(request.minutes)) {
    const { hours, most, part } = taskParts(request.minutes);
    return say(
      language,
      `${ask}, and in parts: ${hours} hours is more than one task can hold (at most ${most} hours). Add each part with its own day it is due, e.g. "add a task: ${name} part 1, ${part} hours, due Friday, to ${said ?? "English"}".`,
      `${ask}，并分成几部分：${hours}小时超过了一个任务能容纳的上限（最多${most}小时）。每部分各带截止日来添加，例如“给${said ?? "英语"}添加任务：${name}第1部分，${part}小时，周五前”。`,
    );
  }
  const hours = request.minutes % 60 === 0 ? request.minutes / 60 : undefined;
  const lengthEn = hours === undefined ? `${request.minutes} minutes` : `${hours} ${hours === 1 ? "hour" : "hours"}`;
  const lengthZh = hours === undefined ? `${request.minutes}分钟` : `${hours}小时`;
  return say(
    language,
    `${ask}, as "add a task: ${name}, ${lengthEn}, due Friday, to ${said ?? "English"}".`,
    `${ask}再说一次，例如“给${said ?? "英语"}添加任务：${name}，${lengthZh}，周五前”。`,
  );
}
