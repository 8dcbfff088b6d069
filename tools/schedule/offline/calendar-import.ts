/**
 * The offline policy's rule for a calendar file sent in a message (the terminal chat's `/import <file.ics>` sends one:
 * `CALENDAR_IMPORT_PREFIX`, the file's name, then its iCalendar text): a one-step plan to import it, and that step
 * proposing `import_calendar` with the file's text — so the events reach the schedule only through a card, as with a
 * model. Checked before the schedule's other requests: the file's text is no request to parse. Nothing else here.
 */
import { say } from "../../../contracts/language.js";
import { currentStepOf, goalOf, latestMessage, userLanguage, type PromptView } from "../../offline/prompt-reading.js";
import { finish, propose, type Decision, type Finish } from "../../offline/decisions.js";
import { appliedWriteText, callResultOf, failureOf } from "./tool-data.js";

/** How a message carrying a calendar file starts: `Import my timetable from the calendar file week.ics:`. */
export const CALENDAR_IMPORT_PREFIX = "Import my timetable from the calendar file";

/** The message that sends a calendar file's text to be imported (what `/import` sends). */
export function calendarImportMessage(fileName: string, ics: string): string {
  return `${CALENDAR_IMPORT_PREFIX} ${fileName}:\n\n${ics.trim()}\n`;
}

/** The file's name and iCalendar text of a message sent by `calendarImportMessage`, or undefined for any other text. */
export function attachedCalendar(text: string): { fileName: string; ics: string } | undefined {
  return text.startsWith(`${CALENDAR_IMPORT_PREFIX} `) ? calendarIn(text) : undefined;
}

/**
 * The newest calendar file a text carries (a prompt quotes the message in its conversation and its goal): the name
 * after `CALENDAR_IMPORT_PREFIX` and the iCalendar text after it, whole.
 */
function calendarIn(text: string): { fileName: string; ics: string } | undefined {
  const start = text.lastIndexOf(`${CALENDAR_IMPORT_PREFIX} `);
  if (start === -1) return undefined;
  const match = /^[^\n]*? calendar file (.+?):\s*\n\s*(BEGIN:VCALENDAR[\s\S]*?END:VCALENDAR)/.exec(text.slice(start));
  return match ? { fileName: match[1]!, ics: match[2]! } : undefined;
}

/** The calendar file of the task's goal (the goal's first line names it; the prompt's text carries it whole). */
function goalCalendar(view: PromptView): { fileName: string; ics: string } | undefined {
  return goalOf(view).startsWith(`${CALENDAR_IMPORT_PREFIX} `) ? calendarIn(view.context) : undefined;
}

const STEP = { en: "Import the timetable from the calendar file", zh: "从日历文件导入课表" } as const;

/** True for the import step this module plans. */
function isImportStep(content: string): boolean {
  return content.startsWith(STEP.en) || content.startsWith(STEP.zh);
}

/** The chat stage's decision for a message carrying a calendar file: a task. */
export function calendarChat(view: PromptView): Decision | undefined {
  return attachedCalendar(latestMessage(view)) ? { intent: "task", reply: "", reason: "a calendar file to import" } : undefined;
}

/** The plan stage's decision for a goal carrying a calendar file: one step that imports it. */
export function calendarPlan(view: PromptView): Decision | undefined {
  const attached = goalCalendar(view);
  if (!attached) return undefined;
  const language = userLanguage(view);
  const content = say(language, `${STEP.en} ${attached.fileName}`, `${STEP.zh} ${attached.fileName}`);
  return {
    speak: say(language, `Plan: ${content}.`, `计划：${content}。`),
    action: "plan_done",
    reason: "the message carries a calendar file to import",
    complexity: "simple",
    need_thinking: false,
    run_mode: "local_adjust",
    plan_steps: [{ content, done_when: say(language, "import_calendar reports the events added, or why none can be", "import_calendar 报告导入的日程，或无法导入的原因") }],
  };
}

/** The execute stage's decision for the import step: propose import_calendar with the file's text, then report it. */
export function calendarExecute(view: PromptView): Decision | undefined {
  const step = currentStepOf(view);
  const attached = goalCalendar(view);
  if (!isImportStep(step.content) || !attached) return undefined;
  const end: Finish = step.index >= step.total ? "done" : "next_plan";
  const language = userLanguage(view);
  const last = view.rounds.at(-1);
  if (last?.name === "import_calendar") {
    const result = callResultOf(last);
    if (result === "applied") return finish(end, "", appliedWriteText(last));
    // A refusal (or a declined card) is told once, in the answer.
    return finish(end, "", `not carried out: ${result === "failed" ? failureOf(last) : "the user rejected the import"}`);
  }
  return propose(say(language, `Importing the timetable from ${attached.fileName}.`, `正在从 ${attached.fileName} 导入课表。`), "import_calendar", { ics: attached.ics }, say(language, "the calendar file you sent", "你发来的日历文件"));
}
