/**
 * Write calls in words a person reads on a confirmation card, in the user's language: the task by
 * name (its id is in the card's arguments) and the place by date and time of day (`calendar.ts` `placeName`) —
 * `Place "Review: limits" on Wed 13 Mar, 10:00–11:40`, or for a Chinese user `安排 "Review: limits" 到 3月13日周三
 * 10:00–11:40`. A window without dates names the weekday, week and slots instead: `Wed, week 1 (day 3), slots 3–4`.
 * Task names stay as the data has them.
 */
import type { Language } from "../../contracts/language.js";
import { placeName } from "./calendar.js";
import {
  TASK_STATUS_ZH,
  taskSlots,
  type ScheduleState,
  type ScheduleTask,
  type SlotRange,
  type TaskStatus,
} from "./state.js";
import { startedStayText, startedTimes } from "./tools/remove-event.js";
import { describeTaskWrite } from "./tools/task-write-cards.js";
import { stillAhead } from "./tools/task-life.js";

/** What a move card adds for a locked event (`LockedEvents` in tools/task-checks.ts). */
export const LOCKED_MOVE = " (a locked event: approve only if its time really changed)";
const LOCKED_MOVE_ZH = "（这是锁定的日程：只有它的时间确实改了才批准）";

/** One write call of the schedule domain described, or undefined for a call it does not describe. */
export function describeScheduleCall(
  state: ScheduleState,
  tool: string,
  args: Record<string, unknown>,
  language: Language = "en",
): string | undefined {
  const task = (id: unknown) => state.tasks.find((candidate) => candidate.id === id);
  const zh = language === "zh";
  const at = (range: SlotRange) => where(state, range, language);
  const now = (found: ScheduleTask) => places(state, found, language);
  switch (tool) {
    case "place":
    case "move": {
      const found = task(args.task_id);
      if (!found) return undefined;
      const range = rangeAt(args.day, args.slot_start, lengthOf(found));
      const target = range ? at(range) : "?";
      const current = tool === "move" ? taskSlots(found)[0] : undefined;
      // A locked event (an exam) moves only when its time really changed: the card says so before anyone approves.
      const locked = tool === "move" && found.source === "event" && found.locked;
      if (zh)
        return tool === "place"
          ? `安排 ${label(found)} 到 ${target}`
          : `把 ${label(found)}${current ? ` 从 ${at(current)}` : ""} 移到 ${target}${locked ? LOCKED_MOVE_ZH : ""}`;
      return `${tool === "place" ? "Place" : "Move"} ${label(found)}${current ? ` from ${at(current)}` : ""} ${tool === "place" ? "on" : "to"} ${target}${locked ? LOCKED_MOVE : ""}`;
    }
    case "swap": {
      const first = task(args.first_task_id);
      const second = task(args.second_task_id);
      if (!first || !second) return undefined;
      return zh
        ? `交换 ${label(first)}（${now(first)}）和 ${label(second)}（${now(second)}）`
        : `Swap ${label(first)} (${now(first)}) with ${label(second)} (${now(second)})`;
    }
    case "unplace": {
      const found = task(args.task_id);
      if (!found) return undefined;
      return zh
        ? `把 ${label(found)} 从 ${now(found)} 撤下，它重新待安排`
        : `Take ${label(found)} off ${now(found)}; it is pending again`;
    }
    case "batch_move": {
      const moves = Array.isArray(args.moves) ? (args.moves as Array<Record<string, unknown>>) : [];
      const lines = moves.map((move) => {
        const found = task(move.task_id);
        const target = found ? rangeAt(move.day, move.slot_start, lengthOf(found)) : undefined;
        if (found && target) return zh ? `${label(found)} 到 ${at(target)}` : `${label(found)} to ${at(target)}`;
        return zh
          ? `${String(move.task_id)} 到第${String(move.day)}天`
          : `${String(move.task_id)} to day ${String(move.day)}`;
      });
      return zh
        ? `一起移动 ${moves.length} 个任务：${lines.join("；")}`
        : `Move ${moves.length} task(s) together: ${lines.join("; ")}`;
    }
    case "mark_done":
    case "mark_missed":
    case "skip":
    case "reopen": {
      const found = task(args.task_id);
      if (!found) return undefined;
      const call = lifeCall(tool, label(found), now(found), zh);
      // Done ahead of its place: the card says the place is freed (`stillAhead`), as a miss's card does.
      if (tool !== "mark_done" || found.source !== "task_item" || !stillAhead(state, found)) return call;
      return zh ? `${call}；提前完成，这个时段会空出来` : `${call}; done ahead of it, so its place is freed`;
    }
    case "restore_task": {
      // An undo of a removal: the task as remove_task recorded it (no longer in the week, so named from the record).
      const restored = args.task as { name?: unknown; status?: unknown } | undefined;
      const name = JSON.stringify(String(restored?.name ?? "?"));
      const status = String(restored?.status ?? "pending");
      // The undo of a missed review's reschedule: the task is still in the week, and gets its miss back.
      if (task((args.task as { id?: unknown } | undefined)?.id))
        return zh
          ? `让 ${name} 回到之前的状态（${TASK_STATUS_ZH[status as TaskStatus] ?? status}）`
          : `Give ${name} back the status it had (${status})`;
      return zh
        ? `恢复已删除的任务 ${name}（${TASK_STATUS_ZH[status as TaskStatus] ?? status}）`
        : `Put back the removed task ${name} (${status})`;
    }
    case "remove_event": {
      // Every occurrence the week shows, so nobody removes a lecture blind; a series goes whole.
      const found = task(args.event_id);
      if (found?.source !== "event") return undefined;
      const series = found.series !== undefined;
      // The past is fixed (remove_event keeps the times that have started): the card names what goes and what stays.
      const started = startedTimes(state, found);
      const ahead = taskSlots(found).filter((range) => !started.includes(range));
      const stay = started.length;
      if (stay > 0) {
        const going = ahead.length === 0 ? "" : ahead.map((range) => at(range)).join(zh ? "；" : "; ");
        return zh
          ? `删除日程 ${label(found)}${going ? `（${going}）` : ""}${series ? "，连同这个系列以后的所有重复" : ""}；已经开始的 ${stay} 次保留`
          : `Remove the event ${label(found)}${going ? ` (${going})` : ""}${series ? ", with every later occurrence of its series" : ""}; ${startedStayText(stay)}`;
      }
      return zh
        ? `删除日程 ${label(found)}（${now(found)}）${series ? "，连同这个系列的所有重复" : ""}`
        : `Remove the event ${label(found)} (${now(found)})${series ? ", with every occurrence of its series" : ""}`;
    }
    case "restore_event": {
      // An undo of a removal: the event as remove_event recorded it (no longer in the week, so named from the record).
      const restored = args.event as { name?: unknown; series?: unknown } | undefined;
      const name = JSON.stringify(String(restored?.name ?? "?"));
      const series = restored?.series !== undefined;
      return zh
        ? `恢复已删除的日程 ${name}${series ? "，连同这个系列的所有重复" : ""}`
        : `Put back the removed event ${name}${series ? ", with every occurrence of its series" : ""}`;
    }
    default:
      return describeTaskWrite(state, tool, args, language);
  }
}

/** A life write on its card: `Mark "Review: limits" done (Wed 13 Mar, 10:00–11:40)`. */
function lifeCall(tool: string, name: string, place: string, zh: boolean): string {
  switch (tool) {
    case "mark_done":
      return zh ? `把 ${name}（${place}）记为已完成` : `Mark ${name} done (${place})`;
    case "mark_missed":
      return zh ? `把 ${name}（${place}）记为错过` : `Mark ${name} missed (${place}); its place is freed`;
    case "skip":
      return zh ? `本周跳过 ${name}（${place}）` : `Skip ${name} this week (${place})`;
    default:
      return zh ? `把 ${name} 重新设为待安排` : `Make ${name} pending again, to reschedule it`;
  }
}

/** `"Review: limits"`: the name a person reads (the card's arguments carry the id). */
function label(task: ScheduleTask): string {
  return JSON.stringify(task.name);
}

/** The slots a task takes: its duration, or its one range's length. */
function lengthOf(task: ScheduleTask): number {
  if (task.source === "task_item") return task.duration;
  const range = taskSlots(task)[0];
  return range ? range.end - range.start + 1 : 1;
}

function rangeAt(day: unknown, start: unknown, length: number): SlotRange | undefined {
  return typeof day === "number" && typeof start === "number" ? { day, start, end: start + length - 1 } : undefined;
}

/** The place as a person reads it (`placeName`). */
function where(state: ScheduleState, range: SlotRange, language: Language): string {
  return placeName(state.window, range, language);
}

/** Where a task is now, or "not on the schedule". */
function places(state: ScheduleState, task: ScheduleTask, language: Language): string {
  const ranges = taskSlots(task);
  if (ranges.length === 0) return language === "zh" ? "不在日程上" : "not on the schedule";
  return ranges.map((range) => where(state, range, language)).join(language === "zh" ? "；" : "; ");
}
