/**
 * A schedule tool's refused arguments in a person's words: each field by what it means to them ("duration" is the
 * length in slots, "slot_start" the start slot), in English and Chinese, and the first problem as a phrase of the
 * summary table (`argTooBig`, …), which `summaryInChinese` reads back and says in Chinese. Before, the person read the
 * schema's own message ("invalid arguments for add_task: duration: Too big: expected number to be <=96"), in English
 * even in a Chinese answer.
 */
import type { ArgumentIssue, InvalidArguments } from "../argument-issues.js";
import type { Language } from "../../contracts/language.js";
import { saySummary, type SummaryKey } from "./summary-phrases.js";

/** Each argument of the schedule's tools a person may read of: its English, its Chinese. */
const FIELD_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  duration: ["number of slots", "节数"],
  day: ["day", "日期（第几天）"],
  days: ["days", "日期"],
  slot_start: ["start slot", "开始节次"],
  slot_end: ["end slot", "结束节次"],
  task_id: ["task", "任务"],
  task_ids: ["tasks", "任务"],
  first_task_id: ["first task", "第一个任务"],
  second_task_id: ["second task", "第二个任务"],
  class_id: ["class", "课程"],
  name: ["name", "名称"],
  times_per_week: ["times a week", "每周次数"],
  sessions: ["sessions", "分次"],
  min_session: ["shortest session", "每次最短时长"],
  max_session: ["longest session", "每次最长时长"],
  due_before_day: ["due day", "截止日期"],
  earliest_day: ["earliest day", "最早日期"],
  weekday: ["weekday", "星期"],
  priority: ["priority", "优先级"],
  limit: ["number of lines", "行数"],
};

/** The phrase of each problem. */
const PROBLEM_KEYS: Readonly<Record<ArgumentIssue["problem"], SummaryKey>> = {
  too_big: "argTooBig",
  too_small: "argTooSmall",
  not_usable: "argNotUsable",
  missing: "argMissing",
};

/** A field's words in `language`: its own, or its name read plainly ("moves.0.day" is the day, "clear_priority" "clear priority"). */
function fieldWords(field: string, language: Language): string {
  const last =
    field
      .split(".")
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? "";
  return FIELD_WORDS[last]?.[language === "zh" ? 1 : 0] ?? (last.replace(/_/g, " ") || "arguments");
}

/** A field's English words (`fieldWords`) in Chinese; words of no field of the table as they are. */
export function fieldInChinese(words: string): string {
  return Object.values(FIELD_WORDS).find(([english]) => english === words)?.[1] ?? words;
}

/** The first problem of a call's refused arguments in `language`, a phrase of the summary table. */
export function argumentProblemIn(data: InvalidArguments, language: Language): string {
  const issue = data.invalidArguments.issues[0];
  if (!issue) return saySummary(language, "argNotUsable", { field: fieldWords("", language), given: "{}" });
  return saySummary(language, PROBLEM_KEYS[issue.problem], {
    field: fieldWords(issue.field, language),
    given: issue.given ?? "",
    bound: issue.limit ?? "",
  });
}

/** The first problem of a call's refused arguments, in English (the words a step's summary keeps). */
export function argumentProblemText(data: InvalidArguments): string {
  return argumentProblemIn(data, "en");
}
