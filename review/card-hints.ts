/**
 * The edit form a write card shows (`args_schema`: Agent Chat UI and Agent Inbox show each field's description), in
 * the user's language. The tools' own field descriptions are written for the model, in English; a Chinese user gets
 * the hints below for the fields a card may hold (the schedule's write tools), and a field without one keeps the
 * tool's description. A tool's form never changes, so it is made once per tool and language (`editForm`), not on
 * every card.
 */
import type { z } from "zod";
import type { Language } from "../contracts/language.js";
import { argumentsSchema } from "../tools/langchain-tools.js";

/** Chinese hints by field name (the same field means the same thing across the schedule's write tools). */
const CHINESE_HINTS: Readonly<Record<string, string>> = {
  task_id: "任务的 id（在日程概览或任务列表中列出）。",
  day: "第几天（从 1 开始，按日程概览的顺序）。",
  slot_start: "从第几个时段开始（从 1 开始）；任务占用从这里起连续的时段。",
  first_task_id: "要交换的第一个任务的 id。",
  second_task_id: "要交换的第二个任务的 id；两个任务的长度必须相同。",
  moves: "要移动的任务，每个任务最多一次；它们一起检查，所以任务可以占用彼此原来的时段。",
  days: "向后移动的天数（默认 7：下一周）。",
  class_id: "课程类别的 id。",
  name: "名称。",
  preferred_parts: "复习时段最好落在一天中的哪些部分。",
  min_session: "一次复习最少占几个时段。",
  max_session: "一次复习最多占几个时段。",
  excluded_days_of_week: "不能安排复习的星期几（1 = 周一 … 7 = 周日）。",
  blocked_days: "不能安排复习的日子（第几天）。",
  strategy: "steady：分散到各天；compact：集中在少数几天。",
  buffer_slots: "复习前后当天要留出的空闲时段数。",
  duration: "需要的连续时段数。",
  due_before_day: "必须在这一天（第几天）之前完成。",
  due_before_event: "必须在这个活动（比如考试）开始之前完成。",
  priority: "重要程度。",
  earliest_day: "最早可以安排在第几天。",
  clear_due_before: "设为 true 取消截止时间。",
  ics: "iCalendar（.ics）格式的课程表文本。",
  at: "完成或错过的时间（ISO 日期时间）；不填则为现在。",
};

/** `schema` (a tool's arguments as JSON schema) with its fields' descriptions in `language` where Tempo has them. */
export function cardArgsSchema(schema: Record<string, unknown>, language: Language): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (language !== "zh" || !properties) return schema;
  const translated = Object.fromEntries(
    Object.entries(properties).map(([field, property]) => {
      const hint = CHINESE_HINTS[field];
      return [field, hint ? { ...property, description: hint } : property];
    }),
  );
  return { ...schema, properties: translated };
}

/** Edit forms made so far, by the tool's arguments schema and the language (a tool's schema is made once). */
const editForms = new WeakMap<z.ZodType, Map<Language, Record<string, unknown>>>();

/**
 * The edit form of a tool whose arguments schema is `schema`, in `language`: made on its first card, then shared by
 * every card of the tool (a card's form is only read: sent and stored, never changed).
 */
export function editForm(schema: z.ZodType, language: Language): Record<string, unknown> {
  const forms = editForms.get(schema) ?? new Map<Language, Record<string, unknown>>();
  editForms.set(schema, forms);
  const made = forms.get(language) ?? cardArgsSchema(argumentsSchema(schema), language);
  forms.set(language, made);
  return made;
}
