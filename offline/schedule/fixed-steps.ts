/**
 * The plan steps the offline policy writes the same way every time: an arrangement's place and verify steps in English
 * and Chinese, the steps that propose missed reviews again, let one go, undo, recover and judge the week (each reads
 * back as its request: `isRescheduleStep`, `isLetGoStep`), and the tool packs they need.
 */
import type { StepDraft } from "../stage-state.js";

/** The steps of an arrange plan: the place step without a scope, and the verify step. */
export const OFFLINE_PLAN_STEPS: readonly StepDraft[] = [
  {
    content: "Place each pending review task into a free slot that fits it",
    done_when: "no review task is left pending, or no free slot fits the rest",
  },
  { content: "Verify the schedule", done_when: "the overview shows how many review tasks are still pending" },
];

export const WEEKDAY_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
export const WEEKDAY_ZH = ["一", "二", "三", "四", "五", "六", "日"];

/** The step that proposes missed reviews again (its text reads back as a reschedule step: `isRescheduleStep`). */
export const RESCHEDULE_STEP = {
  en: {
    content: "Reschedule the missed review to its best free place",
    done_when: "the missed review has a new place, or the user kept it missed, or no place fits",
  },
  zh: {
    content: "把错过的复习补排到最合适的空闲时段",
    done_when: "错过的复习有了新时段，或用户不补排，或没有合适的时段",
  },
} as const;

/**
 * The step that lets a missed review go when the user said not to make it up ("I missed it, don't reschedule it"): its
 * `skip` card, so it is kept from the daily check-in's proposals (its text reads back: `isLetGoStep`).
 */
export const LET_GO_STEP = {
  en: {
    content: "Let the missed review go: skip it, so it is not proposed again",
    done_when: "the missed review is skipped, or the user kept it missed",
  },
  zh: {
    content: "放下错过的复习：跳过它，之后不再提议补排",
    done_when: "错过的复习已跳过，或用户保持错过",
  },
} as const;

/** True for the text of the step that lets a missed review go, in either language. */
export function isLetGoStep(content: string): boolean {
  return content === LET_GO_STEP.en.content || content === LET_GO_STEP.zh.content;
}

/** The step that undoes the last change (its text reads back as an undo request). */
export const UNDO_STEP = {
  en: { content: "Undo the last change", done_when: "the last change is undone, or it is told why it cannot be" },
  zh: { content: "撤销上一次的修改", done_when: "上一次的修改已撤销，或说明无法撤销的原因" },
} as const;

/** The step that proposes the at-risk notice's change (its text reads back as a recover request). */
export const RECOVER_STEP = {
  en: {
    content: "Recover the reviews at risk",
    done_when: "the change that recovers the most is applied, or it is told why there is none",
  },
  zh: { content: "执行补救方案", done_when: "补救最多的修改已应用，或说明没有补救方案的原因" },
} as const;

/** The step that judges the week (its text reads back as a health question). */
export const HEALTH_STEP = {
  en: { content: "Judge the week's health", done_when: "analyze_health has judged the week" },
  zh: { content: "检查这一周的健康分", done_when: "已评估这一周的健康分" },
} as const;

/** The health judge is in the optimize pack, which a question's steps start without. */
export const HEALTH_PACKS = ["schedule.read", "schedule.optimize"] as const;

/** True for the text of the step that proposes missed reviews again, in either language. */
export function isRescheduleStep(content: string): boolean {
  return content === RESCHEDULE_STEP.en.content || content === RESCHEDULE_STEP.zh.content;
}

/** The packs a step about tasks and classes needs (the tasks pack is not active by default). */
export const CLASS_PACKS = ["schedule.read", "schedule.tasks"] as const;

/** The packs a step removing a timetable event needs: reading to find it, the calendar's remove_event (not a default). */
export const CALENDAR_PACKS = ["schedule.read", "schedule.calendar"] as const;

/** The arrange plan's steps in Chinese: the place step without a scope, and the verify step. */
export const OFFLINE_PLAN_STEPS_ZH: readonly StepDraft[] = [
  {
    content: "把所有待安排的复习任务放进能容纳它们的时段",
    done_when: "没有待安排的复习任务，或剩下的任务没有能容纳它们的时段",
  },
  { content: "核对日程", done_when: "日程概览显示还有多少复习任务待安排" },
];
