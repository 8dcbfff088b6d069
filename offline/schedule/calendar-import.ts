/**
 * The offline policy's rule for a calendar file sent in a message (the terminal chat's `/import <file.ics>` sends one:
 * `CALENDAR_IMPORT_PREFIX`, the file's name, then its iCalendar text): a one-step plan to import it, and that step
 * proposing `import_calendar` with the file's text — so the events reach the schedule only through a card, as with a
 * model. Checked before the schedule's other requests: the file's text is no request to parse. The task's goal names
 * the file (its text is never in the goal: contracts/attached-calendar.ts); the text imported is the one the execute
 * prompt attaches — the current request's file, whatever else the conversation or memory mentions. Nothing else here.
 */
import { say } from "../../contracts/language.js";
import {
  ATTACHED_FILES_SECTION,
  attachedCalendars,
  attachedCalendarsIn,
  isCalendarRequest,
  requestedCalendarFile,
} from "../../contracts/attached-calendar.js";
import { currentStepOf, goalOf, latestMessage, section, userLanguage, type PromptView } from "../prompt-reading.js";
import { finish, propose, type Decision, type Finish } from "../decisions.js";
import { appliedWriteSummary, callResultOf, failureOf, notCarriedOut } from "./tool-data.js";
import { SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";

const STEP = { en: "Import the timetable from the calendar file", zh: "从日历文件导入课表" } as const;

/** True for the import step this module plans. */
function isImportStep(content: string): boolean {
  return content.startsWith(STEP.en) || content.startsWith(STEP.zh);
}

/** The chat stage's decision for a message carrying a calendar file: a task. */
export function calendarChat(view: PromptView): Decision | undefined {
  return isCalendarRequest(latestMessage(view))
    ? { intent: "task", reply: "", reason: "a calendar file to import" }
    : undefined;
}

/** The plan stage's decision for a goal naming a calendar file: one step that imports it. */
export function calendarPlan(view: PromptView): Decision | undefined {
  const goal = goalOf(view);
  const fileName = isCalendarRequest(goal) ? requestedCalendarFile(goal) : undefined;
  if (!fileName) return undefined;
  const language = userLanguage(view);
  const content = say(language, `${STEP.en} ${fileName}`, `${STEP.zh} ${fileName}`);
  return {
    speak: say(language, `Plan: ${content}.`, `计划：${content}。`),
    action: "plan_done",
    reason: "the message carries a calendar file to import",
    complexity: "simple",
    need_thinking: false,
    run_mode: "local_adjust",
    plan_steps: [
      {
        content,
        done_when: say(
          language,
          "import_calendar reports the events added, or why none can be",
          "日程已导入，或已说明无法导入的原因",
        ),
      },
    ],
  };
}

/** The execute stage's decision for the import step: propose import_calendar with the request's file, then report it. */
export function calendarExecute(view: PromptView): Decision | undefined {
  const step = currentStepOf(view);
  if (!isImportStep(step.content)) return undefined;
  const end: Finish = step.index >= step.total ? "done" : "next_plan";
  const language = userLanguage(view);
  const last = view.rounds.at(-1);
  if (last?.name === "import_calendar") {
    const result = callResultOf(last);
    if (result === "applied") return finish(end, "", appliedWriteSummary(last, language));
    // A refusal (or a declined card) is told once, in the answer.
    return finish(end, "", notCarriedOut(result === "failed" ? failureOf(last) : SUMMARY_WORDS.en.rejectedImport));
  }
  // Only the file attached to this request is imported, never one the conversation or memory mentions.
  // Beside the prompt in process; over a model server's wire only the prompt's text carries it.
  const [attached] = [
    ...attachedCalendarsIn(view.contextData),
    ...attachedCalendars(section(view.context, ATTACHED_FILES_SECTION)),
  ];
  if (!attached) return finish(end, "", notCarriedOut(SUMMARY_WORDS.en.calendarGone));
  const fileName = attached.fileName ?? say(language, "the calendar you sent", "你发来的日历");
  return propose(
    say(language, `Importing the timetable from ${fileName}.`, `正在从 ${fileName} 导入课表。`),
    "import_calendar",
    { ics: attached.ics },
    say(language, "the calendar file you sent", "你发来的日历文件"),
  );
}
