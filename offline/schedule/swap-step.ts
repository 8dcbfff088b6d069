/** The swap step: find both tasks, propose the swap (never with a locked event), and end with the write's outcome. */
import { swappedText, type ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, propose, read, type Decision, type Finish, type Then } from "../decisions.js";
import { notCarriedOut } from "./tool-data.js";
import { say } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { taskPhrase, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { matchTask } from "./task-matching.js";
import { dayNamedIn, reviewsNamedByDay, whichReviewOfDay } from "./day-named.js";
import { datingOf, type WeekFacts } from "./week-facts.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { ambiguity, type Asked, label, LIST_ALL, listingOf, movable, nameOf, swappable } from "./task-lookup.js";
import { writeEnding } from "./step-endings.js";

/** Why a swap leaves `event` alone: it is locked (only its own move records a time that really changed). */
export function lockedFromSwap(event: ListedTask): string {
  return saySummary("en", "lockedEvent", { event: nameOf(event) });
}

/** Swap: find both tasks, propose the swap. */
export function swapStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "swap" }>,
  end: Finish,
  asked: Asked,
  facts: WeekFacts,
): Decision {
  const { language } = asked;
  const dating = datingOf(facts);
  const answered = writeEnding(rounds, ["swap"], end, dating, language, SUMMARY_WORDS.en.rejectedSwap);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks)
    return read(
      say(language, "Looking up both tasks.", "正在查找这两个任务。"),
      "list_tasks",
      LIST_ALL,
      "need the tasks' ids",
    );
  const candidates = tasks.filter(movable);
  // "Swap Thursday's review with Saturday's": the one review placed that day, or the question which of them (asked
  // once: the answer names the first day's that holds several; a second such day is said, as is a day with none).
  const chosen = new Map<string, string>();
  for (const phrase of [request.first, request.second]) {
    const byDay = matchTask(phrase, candidates) ? undefined : reviewsNamedByDay(phrase, candidates, facts);
    if (!byDay || byDay.reviews.length === 1) continue;
    if (byDay.reviews.length > 1 && asked.answer === undefined)
      return whichReviewOfDay(
        byDay.weekday,
        byDay.reviews,
        language,
        "the swap names a weekday that holds several reviews",
      );
    const answered =
      byDay.reviews.length > 1 && chosen.size === 0 && asked.answer !== undefined
        ? matchTask(taskPhrase(asked.answer), byDay.reviews)
        : undefined;
    if (answered) {
      chosen.set(phrase, answered.task.id);
      continue;
    }
    const day = dayNamedIn(byDay, language);
    return finish(
      end,
      byDay.reviews.length === 0
        ? say(language, `No review is placed on ${day}, so nothing was swapped.`, `${day}没有安排复习，所以没有交换。`)
        : say(
            language,
            `${day} holds ${byDay.reviews.length} reviews: ${byDay.reviews.map((task) => `${task.name} (${task.id})`).join(", ")}. Ask for the swap again with the one you mean, by name or id.`,
            `${day}有 ${byDay.reviews.length} 个复习：${byDay.reviews.map((task) => `${task.name} (${task.id})`).join("、")}。请用名称或 id 说出要交换的那一个，再说一次。`,
          ),
      notCarriedOut(
        byDay.reviews.length === 0
          ? saySummary("en", "noReviewOnDay", { weekday: dayNamedIn(byDay, "en") })
          : `${dayNamedIn(byDay, "en")} holds ${byDay.reviews.length} reviews; the swap needs one named`,
      ),
    );
  }
  const dayReview = (phrase: string) =>
    chosen.get(phrase) ?? reviewsNamedByDay(phrase, candidates, facts)?.reviews[0]?.id ?? phrase;
  const [firstSaid, secondSaid] = [request.first, request.second].map((phrase) =>
    matchTask(phrase, candidates) ? phrase : dayReview(phrase),
  ) as [string, string];
  const first = matchTask(firstSaid, candidates);
  const second = matchTask(
    secondSaid,
    candidates.filter((task) => task.id !== first?.task.id),
  );
  const missing = !first ? request.first : !second ? request.second : undefined;
  if (missing !== undefined || !first || !second)
    return finish(
      end,
      say(language, `I found no placed task matching "${missing}".`, `我没有找到与“${missing}”匹配的已安排任务。`),
      notCarriedOut(`${saySummary("en", "noPlacedTaskFound", { matching: `"${missing}"` })}`),
    );
  // A locked event is never swapped (a swap makes room); its own move records a time that really changed.
  const locked = [first.task, second.task].find((task) => !swappable(task));
  if (locked !== undefined)
    return finish(
      end,
      say(
        language,
        `${label(locked, language)} is locked: a swap never moves it. If its time really changed, ask me to move it.`,
        `${label(locked, language)} 已锁定：交换不会移动它。如果它的时间确实改了，请让我移动它。`,
      ),
      notCarriedOut(lockedFromSwap(locked)),
    );
  // What swap reports once it applies as proposed (each task on the other's range, inside the other's host).
  const [a, b] = [first.task, second.task];
  const landing = (task: ListedTask, other: ListedTask) => ({
    id: task.id,
    ...other.slots[0]!,
    ...(task.kind === "placed" && other.hostId ? { hostId: other.hostId } : {}),
  });
  const predictable = a.slots.length === 1 && b.slots.length === 1 && a.duration === b.duration;
  const then: Then | undefined = predictable
    ? {
        action: end,
        goalCheck: swappedText({ swapped: [a.id, b.id], moved: [landing(a, b), landing(b, a)] }, dating).replace(
          /\n- /g,
          "; ",
        ),
      }
    : undefined;
  const speak = say(
    language,
    `Swapping ${label(a, language)} and ${label(b, language)}${ambiguity(first, language)}${ambiguity(second, language)}.`,
    `交换${label(a, language)}和${label(b, language)}${ambiguity(first, language)}${ambiguity(second, language)}。`,
  );
  return propose(
    speak,
    "swap",
    { first_task_id: a.id, second_task_id: b.id },
    say(language, "the tasks the request names", "请求指定的任务"),
    then,
  );
}
