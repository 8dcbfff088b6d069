/**
 * Steps that read the tasks and change nothing: the list of tasks (pending, placed, all, still to do) and why a task is
 * where it is (`get_task_info`).
 */
import { formatCount, formatRanges } from "../../tools/schedule/format.js";
import { readablePlaces } from "../../tools/schedule/readable.js";
import { TASK_STATUS_ZH, type TaskStatus } from "../../tools/schedule/state.js";
import type { GetTaskInfoData, ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, read, readAll, type Decision, type Finish } from "../decisions.js";
import { callResultOf, failureOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { listedReviews } from "./replies.js";
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { hasStarted, placeWords, type WeekFacts } from "./week-facts.js";
import type { Dating } from "../../tools/schedule/format.js";
import { ambiguity, type Asked, label, listingOf, lookUpTask, namedTask } from "./task-lookup.js";
import { noTaskMatching } from "./step-endings.js";
import { couldNotLookUp } from "./look-steps.js";

/** List pending / placed / all review tasks. */
export function listStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "list" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  // The listing asked for; a pending one is followed by the missed reviews' (read apart, below), and "not done yet"
  // past one listing's 100 by a listing of each status still to do.
  const isMissedListing = (round: RoundView) => request.status === "pending" && round.arguments.status === "missed";
  const listing = rounds.findLast(
    (round) =>
      round.name === "list_tasks" &&
      !round.summarised &&
      !isMissedListing(round) &&
      (request.status !== "open" || round.arguments.status === undefined),
  );
  // "Not done yet" past the first listing's 100: what it left out may be still to do, so each status still to do is
  // listed on its own, in one round (so the three stay whole together when summarising cuts the long first listing),
  // and the answer counts from those.
  const statusRound = rounds.findLastIndex(
    (round, index) =>
      request.status === "open" &&
      STILL_TO_DO.every((status, offset) => {
        const each = rounds[index + offset];
        return each?.name === "list_tasks" && !each.summarised && each.arguments.status === status;
      }),
  );
  const statusData =
    statusRound === -1
      ? []
      : STILL_TO_DO.flatMap((_, offset) => {
          const data = toolDataOf(rounds[statusRound + offset], "list_tasks");
          return data ? [data] : [];
        });
  const counted = statusData.length === STILL_TO_DO.length ? statusData : undefined;
  const listed = toolDataOf(listing, "list_tasks");
  // A listing that failed lists nothing; one without data (saved before tools gave data) is read again.
  if (!counted && (!listing || (!listed && callResultOf(listing) !== "failed"))) {
    const args: Record<string, unknown> =
      request.status === "all" || request.status === "open"
        ? { source: "task_item", limit: 100 }
        : { status: request.status, limit: 100 };
    return read(
      say(language, "Listing the review tasks.", "正在列出复习任务。"),
      "list_tasks",
      args,
      "the question is about the review tasks",
    );
  }
  // "Which are pending?" after the week rolled on: the missed reviews are still to do too — read, and named apart.
  const missedRound =
    request.status === "pending" && listing
      ? rounds
          .slice(rounds.indexOf(listing) + 1)
          .findLast((round) => round.name === "list_tasks" && !round.summarised && isMissedListing(round))
      : undefined;
  if (request.status === "pending" && listed && !missedRound)
    return read(
      say(language, "Looking for missed reviews too.", "也看看错过的复习。"),
      "list_tasks",
      { status: "missed", limit: 100 },
      "missed reviews are still to do, and are not pending",
    );
  const missed = (toolDataOf(missedRound, "list_tasks")?.tasks ?? []).filter((task) => task.kind === "missed");
  const missedLine =
    missed.length === 0
      ? []
      : [
          say(
            language,
            `Missed and without a place (${missed.length}): ${missed.map((task) => task.name).join("; ")} — "reschedule my missed reviews" proposes them again.`,
            `错过且没有安排的（${missed.length} 个）：${missed.map((task) => task.name).join("、")}——说“补排错过的复习”即可重新安排。`,
          ),
        ];
  // Still to do: not done and not skipped, wherever it is (pending, placed, missed).
  const stillToDo = (kind: string) => (STILL_TO_DO as readonly string[]).includes(kind);
  if (request.status === "open" && !counted && listed && listed.omitted > 0)
    return readAll(
      say(language, "Listing each kind of review still to do on its own.", "分别列出每种还没完成的复习。"),
      STILL_TO_DO.map((status) => ({ name: "list_tasks", arguments: { status, limit: 100 } })),
      "one listing of every task item stops at 100",
    );
  const firstOrder = new Map((listed?.tasks ?? []).map((task, index) => [task.id, index]));
  const tasks = counted
    ? counted
        .flatMap((each) => each.tasks)
        .sort((a, b) => (firstOrder.get(a.id) ?? firstOrder.size) - (firstOrder.get(b.id) ?? firstOrder.size))
    : (listed?.tasks ?? []).filter(
        (task) => task.kind !== "event" && (request.status !== "open" || stillToDo(task.kind)),
      );
  const which = listedReviews(request.status, language, "review task(s)");
  if (tasks.length === 0)
    return finish(end, "", [say(language, `You have no ${which}.`, `你没有${which}。`), ...missedLine].join("\n"));
  const lines = tasks.map((task) => listedLine(task, facts, language));
  const more = listed && listed.omitted > 0 ? formatCount(listed.omitted) : undefined;
  let head: string;
  if (counted) {
    // Each status's own listing stops at 100 too: the count is still exact, and says how many are listed.
    const total = counted.reduce((sum, each) => sum + each.tasks.length + each.omitted, 0);
    head =
      total > tasks.length
        ? say(
            language,
            `${formatCount(total)} ${which}; ${tasks.length} listed:`,
            `${formatCount(total)} 个${which}；列出其中 ${tasks.length} 个：`,
          )
        : say(language, `${tasks.length} ${which}:`, `${tasks.length} 个${which}：`);
  } else
    head = say(
      language,
      `${tasks.length}${more ? `+${more}` : ""} ${which}:`,
      `${tasks.length}${more ? `+${more}` : ""} 个${which}：`,
    );
  // ("How did I do this week?": every review listed, and how they stand, counted.)
  const tally = request.status === "all" && !more ? [tallyOf(tasks, facts, language)] : [];
  return finish(end, "", [head, ...tally, ...lines, ...missedLine].join("\n"));
}

/**
 * How the reviews listed stand, counted: "2 done, 1 missed; 3 placed (1 whose time has passed, not marked done or
 * missed); 2 pending." — the kinds none is of left out.
 */
function tallyOf(tasks: readonly ListedTask[], facts: WeekFacts, language: Language): string {
  const count = (kind: string) => tasks.filter((task) => task.kind === kind).length;
  const passed = tasks.filter((task) => task.kind === "placed" && task.slots[0] && hasStarted(task.slots[0], facts));
  const parts: Array<[number, string, string]> = [
    [count("done"), "done", "已完成"],
    [count("missed"), "missed", "错过"],
    [count("skipped"), "skipped", "跳过"],
    [count("placed"), "placed", "已安排"],
    [count("pending"), "pending", "待安排"],
  ];
  const said = parts
    .filter(([number]) => number > 0)
    .map(([number, en, zh]) =>
      say(
        language,
        `${number} ${en}${en === "placed" && passed.length > 0 ? ` (${passed.length} whose time has passed, not marked done or missed)` : ""}`,
        `${zh} ${number} 个${zh === "已安排" && passed.length > 0 ? `（其中 ${passed.length} 个时间已过，还没记为完成或错过）` : ""}`,
      ),
    );
  return say(language, `So far: ${said.join(", ")}.`, `目前：${said.join("，")}。`);
}

/** A task as a listing answer shows it: its name, length and place (or status). */
function listedLine(task: ListedTask, facts: WeekFacts, language: Language): string {
  const range = task.slots[0];
  // A done one says so beside its place; a missed or skipped one has none (the list shows where it was as history).
  const status = task.kind === "event" ? "pending" : task.kind;
  if (language === "zh") {
    const where = range
      ? `，${status === "done" ? "已完成，" : ""}在${placeWords(range, facts, language)}${task.hostId ? "（嵌入在课程时间内）" : ""}`
      : `，${TASK_STATUS_ZH[status]}`;
    return `- ${task.name}，${task.duration} 节${where}`;
  }
  const where = range
    ? `, ${status === "done" ? "done " : ""}on ${placeWords(range, facts, language)}${task.hostId ? " inside a timetable entry" : ""}`
    : `, ${status}`;
  return `- ${task.name}, ${task.duration} slot(s)${where}`;
}

/** The statuses of a task item still to do: not done and not skipped, wherever it is. */
const STILL_TO_DO = ["pending", "placed", "missed"] as const satisfies readonly TaskStatus[];

/**
 * A task as an explain answer tells it, in sentences (`get_task_info`'s data): an event's places, whether it is locked
 * and what sits inside it; a task item's class, length and where it stands. Names, never ids or field names.
 */
function explainedTask(shown: GetTaskInfoData, dating: Dating | undefined, language: Language): string {
  const { task } = shown;
  const name = JSON.stringify(task.name);
  const places =
    task.slots.length === 0
      ? undefined
      : dating
        ? readablePlaces(formatRanges(task.slots, dating), language)
        : formatRanges(task.slots);
  if (task.kind === "event") {
    const guests = (shown.embeds ?? []).flatMap(({ task: guest }) => (guest ? [JSON.stringify(guest.name)] : []));
    return say(
      language,
      `${name} is a timetable event${places ? ` on ${places}` : ""}` +
        `${task.locked ? "; it is locked (a swap never moves it)" : ""}` +
        `${task.canEmbed ? `; reviews can go inside it${guests.length > 0 ? ` (inside it now: ${guests.join(", ")})` : ""}` : ""}.`,
      `${name}是课表上的活动${places ? `，在${places}` : ""}` +
        `${task.locked ? "；已锁定（交换不会移动它）" : ""}` +
        `${task.canEmbed ? `；可以在其中安排复习${guests.length > 0 ? `（现在其中有：${guests.join("、")}）` : ""}` : ""}。`,
    );
  }
  const course = JSON.stringify(shown.categoryName ?? task.categoryId ?? "");
  const host = shown.hostName === undefined ? undefined : JSON.stringify(shown.hostName);
  const where = places ? say(language, ` on ${places}`, `在${places}`) : "";
  const inside = host ? say(language, ` inside ${host}`, `（在${host}之内）`) : "";
  const status = task.kind as TaskStatus;
  const stands = {
    pending: say(language, "pending: it has no place yet", "待安排：还没有时间"),
    placed: say(language, `placed${where}${inside}`, `已安排${where}${inside}`),
    done: say(language, `done${where}`, `已完成${places ? `（${places}）` : ""}`),
    missed: say(language, "missed: it has no place now", "已错过：现在没有时间"),
    skipped: say(language, "skipped this week", "本周已跳过"),
  }[status];
  return say(
    language,
    `${name} is a study task in the class ${course}, ${task.duration} slot(s), ${stands}.`,
    `${name}是${course}的学习任务，${task.duration} 节，${stands}。`,
  );
}

/** Explain a task: find it, then get_task_info. */
export function explainStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "explain" }>,
  end: Finish,
  asked: Asked,
  dating: Dating,
): Decision {
  const { language } = asked;
  const info = rounds.findLast((round) => round.name === "get_task_info" && !round.summarised);
  if (info && callResultOf(info) === "failed") return finish(end, "", couldNotLookUp(failureOf(info), language));
  const shown = toolDataOf(info, "get_task_info");
  if (shown) return finish(end, "", explainedTask(shown, dating, language));
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  const named = namedTask(request.task, tasks, tasks, asked, "the step names no task the schedule has");
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, "", notCarriedOut(noTaskMatching(named.none, "en")));
  const { match } = named;
  return read(
    say(
      language,
      `Reading ${label(match.task, language)}${ambiguity(match, language)}.`,
      `正在读取${label(match.task, language)}${ambiguity(match, language)}。`,
    ),
    "get_task_info",
    { task_id: match.task.id },
    "the question is about this task",
  );
}
