/**
 * The reply to a long task said whole but for the day it is due ("add a task: thesis, 100 hours, to English",
 * "给英语添加任务：论文，100小时"): a long task is spread over the days before its deadline, so nothing is added, and the
 * request is said back whole with a day as an example — one the reader reads ("…, due Friday, to English",
 * "给英语添加任务：…，周五前"). Before, the generic "I can't tell what to do" list.
 */
import { say, type Language } from "../../contracts/language.js";
import { asWritten } from "../../tools/schedule/request-parsing.js";

/** What the reader gave of the request (`why: "no_due_day"`). */
export interface NoDueDay {
  name: string;
  minutes: number;
  classPhrase?: string;
}

/** The reply, in `language`; `message` gives the name and class as the user wrote them (the reader lowercases). */
export function dueDayReply(request: NoDueDay, message: string, language: Language): string {
  const name = asWritten(request.name, message);
  const hours = request.minutes % 60 === 0 ? request.minutes / 60 : undefined;
  const lengthEn = hours === undefined ? `${request.minutes} minutes` : `${hours} ${hours === 1 ? "hour" : "hours"}`;
  const lengthZh = hours === undefined ? `${request.minutes}分钟` : `${hours}小时`;
  const said = request.classPhrase === undefined ? undefined : asWritten(request.classPhrase, message);
  return say(
    language,
    `A long task is spread over the days before it is due, and "${name}" has no day it is due, so I added nothing. Say it with the day${said === undefined ? " and its class" : ""}, as "add a task: ${name}, ${lengthEn}, due Friday, to ${said ?? "English"}".`,
    `长任务要分到截止日之前的几天里，而“${name}”没有说哪天截止，所以什么也没有添加。请带上截止日${said === undefined ? "和课程" : ""}再说一次，例如“给${said ?? "英语"}添加任务：${name}，${lengthZh}，周五前”。`,
  );
}
