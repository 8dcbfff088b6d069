/** What a card says of a task write (`describeTaskWrite`): the class, task, calendar or roll it asks for, in words. */
import { partInChinese, weekdayName, type Language } from "../../../contracts/language.js";
import { formatDate, type ScheduleState } from "../state.js";
import {
  alreadyThereText,
  earlierEventText,
  passedEventText,
  reviewsLeftOutText,
  type ImportedOccurrence,
} from "../calendar-files.js";
import { type AddTaskData, addTaskTool } from "./task-items.js";
import { type ImportCalendarData, importCalendarTool } from "./calendar-io.js";

/** Most occurrences of one imported event a card lists. */
const CARD_OCCURRENCES = 4;

/** An imported event's occurrences as a card tells them: "Mon 25 Mar 10:00–11:40 (08:00 Europe/Berlin → 15:00 Asia/Shanghai), …". */
function occurrencesText(occurrences: readonly ImportedOccurrence[], language: Language): string {
  const zh = language === "zh";
  // A series whose times in this window have passed, or start after it: it is added for the weeks after.
  if (occurrences.length === 0)
    return zh ? "本窗口内已没有它的时间，之后各周照常" : "no time left in this window; it is kept for the weeks after";
  const shown = occurrences.slice(0, CARD_OCCURRENCES).map((occurrence) => {
    const converted = occurrence.converted
      ? zh
        ? `（${occurrence.converted.zone} ${occurrence.converted.start} 换算为 ${occurrence.converted.windowZone} ${occurrence.start}）`
        : ` (${occurrence.converted.start} ${occurrence.converted.zone} → ${occurrence.start} ${occurrence.converted.windowZone})`
      : "";
    return `${formatDate(occurrence.date, language)} ${occurrence.start}–${occurrence.end}${converted}`;
  });
  const more = occurrences.length - shown.length;
  if (more > 0) shown.push(zh ? `另有 ${more} 次` : `and ${more} more`);
  return shown.join(zh ? "、" : ", ");
}

/** The task writes as a card names them, in the user's language; undefined for another tool. */
export function describeTaskWrite(
  state: ScheduleState,
  tool: string,
  args: Record<string, unknown>,
  language: Language,
): string | undefined {
  const zh = language === "zh";
  const task = state.tasks.find((entry) => entry.id === args.task_id);
  const named = (fallback: unknown) => JSON.stringify(task?.name ?? String(fallback));
  const className = (id: unknown) =>
    JSON.stringify(state.categories.find((entry) => entry.id === id)?.name ?? String(id));
  switch (tool) {
    case "upsert_task_class": {
      const parts: string[] = [];
      if (Array.isArray(args.excluded_days_of_week))
        parts.push(
          zh
            ? `不用${(args.excluded_days_of_week as number[]).map((day) => weekdayName(day, "zh")).join("、")}`
            : `never on ${(args.excluded_days_of_week as number[]).map((day) => weekdayName(day, "en")).join(", ")}`,
        );
      if (Array.isArray(args.preferred_parts))
        parts.push(
          zh
            ? `偏好${(args.preferred_parts as string[]).map(partInChinese).join("、")}`
            : `prefers the ${(args.preferred_parts as string[]).join(" or ")}`,
        );
      if (typeof args.buffer_slots === "number")
        parts.push(zh ? `前后留 ${args.buffer_slots} 节空` : `${args.buffer_slots} free slot(s) around each session`);
      const what =
        args.class_id !== undefined && state.categories.some((entry) => entry.id === args.class_id)
          ? zh
            ? "修改课程"
            : "Change the class"
          : zh
            ? "新建课程"
            : "Create the class";
      return `${what} ${JSON.stringify(String(args.name))}${parts.length > 0 ? (zh ? `：${parts.join("，")}` : `: ${parts.join("; ")}`) : ""}`;
    }
    case "add_task": {
      const split = args.sessions === true ? addTaskTool.run(state, args as never) : undefined;
      const sessions = split?.ok ? ((split.data as AddTaskData).sessions?.map((task) => task.duration) ?? []) : [];
      if (sessions.length > 1)
        return zh
          ? `新增任务 ${JSON.stringify(String(args.name))}（共 ${String(args.duration)} 节，分 ${sessions.length} 次：${sessions.join("+")} 节，不在同一天，${className(args.class_id)}），待安排`
          : `Add the task ${JSON.stringify(String(args.name))} (${String(args.duration)} slot(s) in ${sessions.length} sessions of ${sessions.join("+")}, no two on one day, ${className(args.class_id)}), pending`;
      return zh
        ? `新增任务 ${JSON.stringify(String(args.name))}（${String(args.duration)} 节，${className(args.class_id)}），待安排`
        : `Add the task ${JSON.stringify(String(args.name))} (${String(args.duration)} slot(s), ${className(args.class_id)}), pending`;
    }
    case "add_habit": {
      const part = typeof args.part === "string" ? args.part : undefined;
      const partZh = part ? partInChinese(part) : undefined;
      return zh
        ? `新增习惯 ${JSON.stringify(String(args.name))}：每周 ${String(args.times_per_week)} 次，每次 ${String(args.duration)} 节${partZh ? `，偏好${partZh}` : ""}，不在同一天；每到新的一周自动添加`
        : `Add the habit ${JSON.stringify(String(args.name))}: ${String(args.times_per_week)} time(s) a week, ${String(args.duration)} slot(s) each${part ? `, in the ${part}` : ""}, no two on one day; each new week gets its own`;
    }
    case "update_task":
      return zh ? `修改任务 ${named(args.task_id)}` : `Change the task ${named(args.task_id)}`;
    case "remove_task":
      return zh ? `删除任务 ${named(args.task_id)}` : `Remove the task ${named(args.task_id)}`;
    case "remove_task_class":
      return zh ? `删除课程 ${className(args.class_id)}` : `Remove the class ${className(args.class_id)}`;
    case "roll_window": {
      const days = typeof args.days === "number" ? args.days : 7;
      return zh
        ? `把日程窗口向后移动 ${days} 天（之前的日子和其上的日程移出；已完成的复习留作记录，未完成的记为错过）`
        : `Move the window on by ${days} day(s) (the past days go with their events; done reviews stay on record, placed ones not done become missed)`;
    }
    case "import_calendar": {
      const outcome = importCalendarTool.run(state, { ics: String(args.ics ?? "") });
      // A file nothing of which can be added: the attempt is named, its refusal told where it is refused.
      if (!outcome.ok) return zh ? "从日历文件导入日程" : "Import events from the calendar file";
      const found = outcome.data as ImportCalendarData;
      // Each event with its day and clock times, and the file's own times when it wrote them in another zone: nobody approves blind.
      // Then what the clock leaves out: the times that have passed, the events with none left and the one-offs before
      // the window; then what is there already, and the placed reviews.
      const reviews = found.reviews ?? [];
      const present = found.present ?? [];
      const told = [
        ...found.events.map((event) => `${event.name} — ${occurrencesText(found.times[event.id] ?? [], language)}`),
        ...found.passed.map((passed) => passedEventText(passed, language)),
        ...(found.earlier ?? []).map((earlier) => earlierEventText(earlier, language)),
        ...(present.length > 0 ? [alreadyThereText(present, language)] : []),
        ...(reviews.length > 0 ? [reviewsLeftOutText(reviews, language)] : []),
      ];
      return zh
        ? `从日历文件导入 ${found.events.length} 个日程：${told.join("；")}`
        : `Import ${found.events.length} event(s) from the calendar file: ${told.join("; ")}`;
    }
    default:
      return undefined;
  }
}
