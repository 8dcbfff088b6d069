/**
 * `restore_task` (issue 47 item 4): puts back a task item that `remove_task` removed, as that write recorded it — its
 * name, class, length, deadline, priority, earliest day and group — after the other tasks (the store adds task items
 * so), so "undo that" can reverse a removal through a card of ordinary writes. A pending task comes back pending; a
 * task that was placed comes back pending and is placed again by `place` (the clock and the rules are place's to
 * check). A done, missed or skipped task comes back with its history — its status, when it was marked, where it was
 * (and its place, for one done in the window) — since nothing places or scores history: only the whole-week checks
 * (no overlap, its host still there) apply. A task still in the week gets its life back the same way, replaced in
 * place by the record when nothing else of it changed: the undo of a missed review's reschedule (missed again, when
 * and where) and of a mark made after the review's time (placed again where the clock has passed: history too).
 */
import { z } from "zod";
import type { Language } from "../../../contracts/language.js";
import type { DomainTool } from "../../domain.js";
import { dayName, dayOfDate, placeName, slotClock } from "../calendar.js";
import { buildEventTask, buildTaskItem, sortIds } from "../canonical-form.js";
import { failure, quoteName } from "../format.js";
import {
  formatDate,
  taskItemSchema,
  TASK_STATUS_ZH,
  type PastPlace,
  type ScheduleState,
  type TaskItem,
} from "../state.js";
import { checkScheduleInvariants } from "../validation.js";
import { clockOfState, hasStarted } from "../window-clock.js";

const restoreTaskArgumentsSchema = z.object({
  task: taskItemSchema.describe("The task item as remove_task recorded it (propose_undo gives it)."),
});

/**
 * What restore_task did, as data: the task item as it is back, and — when it gave a pending task its history back in
 * place (the undo of a missed review's reschedule) — that task as it was.
 */
export interface RestoreTaskData {
  task: TaskItem;
  replaced?: TaskItem;
}

/** Puts a removed task item back, as it was recorded. */
export const restoreTaskTool: DomainTool<ScheduleState, z.infer<typeof restoreTaskArgumentsSchema>> = {
  name: "restore_task",
  description:
    "Puts back a task item that remove_task removed, as it was recorded (a placed one comes back pending: place it " +
    "again; a done, missed or skipped one with its history; one still in the week gets its status back in place, placed only where the clock has passed). Only as propose_undo's candidate u1 gives it; never to " +
    "make up a task (add_task does that).",
  schema: restoreTaskArgumentsSchema,
  kind: "write",
  candidateOf: "propose_undo",
  run(state, args) {
    const task = buildTaskItem(args.task as TaskItem);
    // The undo of a mark or of a missed review's reschedule gives a task still in the week its life back, in place.
    const position = state.tasks.findIndex((entry) => entry.id === task.id);
    const present = state.tasks[position];
    const replaced = present?.source === "task_item" && sameTaskOtherwise(present, task) ? present : undefined;
    if (present !== undefined && replaced === undefined)
      return failure(
        `a task with id ${quoteName(task.id)} exists again (a later write added it); nothing was restored`,
      );
    // The store adds a task item pending or settled (history), after the tasks it keeps (diff.ts); placing is place's,
    // but for a place the clock has passed: that is history too (a mark of it undone), which nothing places any more.
    const range = task.slots?.[0];
    if (
      task.status === "placed" &&
      (replaced === undefined || range === undefined || !hasStarted(range.day, range.start, clockOfState(state)))
    )
      return failure(
        replaced === undefined
          ? `task ${task.id} comes back pending, not placed; place puts it back where it was`
          : `task ${task.id} comes back placed only where its place has started (history); place puts it on a place ahead`,
      );
    if (!state.categories.some((category) => category.id === task.categoryId))
      return failure(`its class ${quoteName(task.categoryId)} is gone; nothing was restored`);
    // A task that sat inside an event (a study hall) is its guest again, and no other event's.
    const host = task.embeddedIn;
    const guestOfHost = state.tasks.map((entry) => {
      if (entry.source !== "event" || (entry.id !== host && !entry.embeds.includes(task.id))) return entry;
      const others = entry.embeds.filter((id) => id !== task.id);
      return buildEventTask({ ...entry, embeds: sortIds(entry.id === host ? [...others, task.id] : others) });
    });
    const tasks =
      replaced === undefined
        ? [...guestOfHost, task]
        : guestOfHost.map((entry, index) => (index === position ? task : entry));
    const next: ScheduleState = { ...state, tasks };
    const problems = checkScheduleInvariants(next);
    if (problems.length > 0) return failure(`${problems.join("; ")}; nothing was restored`);
    const data: RestoreTaskData = replaced === undefined ? { task } : { task, replaced };
    return {
      ok: true,
      content: `restored task ${task.id} ${quoteName(task.name)}; it is ${task.status}`,
      state: next,
      data,
    };
  },
  cardArguments(state, args, language) {
    return restoredTaskCard(state, args.task as TaskItem, language);
  },
};

/** True when `present` is `record` in everything but its life: status, when it was marked, where it is or was. */
function sameTaskOtherwise(present: TaskItem, record: TaskItem): boolean {
  const fields = (task: TaskItem) => {
    const {
      status: _status,
      markedAt: _marked,
      was: _was,
      slots: _slots,
      embeddedIn: _host,
      ...rest
    } = buildTaskItem(task);
    return JSON.stringify(rest);
  };
  return fields(present) === fields(record);
}

/**
 * What a restore_task card shows a person in place of the recorded task item (`DomainTool.cardArguments`): its name
 * and class, how it comes back and when — its place on record for history (done, missed, skipped), none for a pending
 * one (a `place` write after it on the card puts it where it was) — and its deadline, if any:
 * `{ task: "Matrix review", class: "Linear Algebra", status: "done", when: "Fri 11 Dec, 08:00–09:40" }`.
 */
export function restoredTaskCard(state: ScheduleState, task: TaskItem, language: Language): Record<string, string> {
  const zh = language === "zh";
  const className = state.categories.find((category) => category.id === task.categoryId)?.name ?? task.categoryId;
  const range = task.slots?.[0];
  const when =
    range !== undefined
      ? placeName(state.window, range, language)
      : task.was !== undefined
        ? pastPlaceName(state, task.was, language)
        : zh
          ? "待安排，还没有时间"
          : "pending, no time yet";
  const due = task.dueBefore;
  const deadline =
    due === undefined
      ? undefined
      : "day" in due
        ? dayName(state.window, due.day, language)
        : JSON.stringify(state.tasks.find((entry) => entry.id === due.eventId)?.name ?? due.eventId);
  return {
    task: task.name,
    class: className,
    status: zh ? (TASK_STATUS_ZH[task.status] ?? task.status) : task.status,
    when,
    ...(deadline === undefined ? {} : { due: zh ? `${deadline}之前` : `before ${deadline}` }),
  };
}

/** Where a settled task was, as a person reads it: the window's place when it still shows that day, else its date. */
function pastPlaceName(state: ScheduleState, place: PastPlace, language: Language): string {
  const day = place.date !== undefined ? dayOfDate(state.window, place.date) : undefined;
  if (day !== undefined) return placeName(state.window, { day, start: place.start, end: place.end }, language);
  const clock = slotClock(state.window, place.start, place.end);
  const date = place.date !== undefined ? formatDate(place.date, language) : undefined;
  if (date !== undefined && clock !== undefined) return language === "zh" ? `${date} ${clock}` : `${date}, ${clock}`;
  const slots = `${place.start}–${place.end}`;
  return language === "zh"
    ? `${date ?? `第${place.week}周`}，第${slots}节`
    : `${date ?? `week ${place.week}`}, slots ${slots}`;
}
