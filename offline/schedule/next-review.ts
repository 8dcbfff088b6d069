/**
 * "My next review" (下一个复习): the placed review that starts first after now by the run's clock, anywhere in the
 * week. The plan step names it by its own name ("Move "Matrix operations review" to Wednesday"), so the card shows
 * which review it is about and the step reads the same whenever it runs; with no review still to come, or no clock to
 * tell, which review is asked.
 */
import { say, type Language } from "../../contracts/language.js";
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { GetOverviewData } from "../../tools/schedule/tools/index.js";
import { placeWords, startOnClock, type WeekFacts } from "./week-facts.js";

type PlacedTaskEntry = GetOverviewData["placedTasks"][number];

const NEXT_EN = /^(?:the\s+|my\s+)?(?:next|upcoming)\s+(?:review|study session|session|task)$/i;
const NEXT_ZH = /^(?:我的)?(?:下一个|下个|下一次|下次|下一项|接下来的?)(?:复习|学习|任务)$/;

/** True for the words of "my next review" in either language ("next review", "upcoming session", "下次复习"). */
export function isNextReview(phrase: string): boolean {
  const said = phrase.trim();
  return NEXT_EN.test(said) || NEXT_ZH.test(said);
}

/**
 * The placed review that starts first after now (none started yet); undefined with no clock or dated window, when
 * every placed review has started, or when the overview does not list every placed review.
 */
export function nextReviewOf(
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
): (PlacedTaskEntry & { place: NonNullable<PlacedTaskEntry["place"]> }) | undefined {
  if (!overview || (overview.placedOmitted ?? 0) > 0) return undefined;
  const ahead = overview.placedTasks.flatMap((task) => {
    const at = task.place ? startOnClock(task.place, facts) : undefined;
    return task.place && at && at.start > at.now ? [{ task: { ...task, place: task.place }, start: at.start }] : [];
  });
  ahead.sort((a, b) => a.start.localeCompare(b.start) || a.task.place.start - b.task.place.start);
  return ahead[0]?.task;
}

/** The task phrases of a request that "my next review" may stand for: what it moves, takes off, swaps or skips. */
function phrasesOf(request: ScheduleRequest): string[] {
  if (request.kind === "move" || request.kind === "unplace") return [request.task];
  if (request.kind === "swap") return [request.first, request.second];
  if (request.kind === "mark" && request.to === "skipped") return [request.task];
  return [];
}

/** A request whose task is "my next review", that review named, or the question which review is meant. */
export type NextReviewed = { request: ScheduleRequest; said: string } | { question: string } | undefined;

/**
 * `request` with "my next review" named by the review's own name (its id when another task shares the name), and
 * what to say before the plan ("Your next review is …"); the question which review, when none can be told; undefined
 * when the request names no next review (or the week holds a task of that very name).
 */
export function withNextReview(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
  language: Language,
): NextReviewed {
  const named = (phrase: string) =>
    overview?.placedTasks.some((task) =>
      [task.name, task.id].some((own) => own.toLowerCase() === phrase.trim().toLowerCase()),
    ) ?? false;
  const phrases = phrasesOf(request).filter((phrase) => isNextReview(phrase) && !named(phrase));
  if (phrases.length === 0) return undefined;
  const next = nextReviewOf(overview, facts);
  if (!next) {
    const placed = (overview?.placedTasks ?? []).slice(0, 6).map((task) => task.name);
    const listed = placed.length > 0 ? say(language, ` (${placed.join(", ")})`, `（${placed.join("、")}）`) : "";
    const why = !facts.now
      ? say(
          language,
          "I cannot tell the time now, so I cannot tell which review comes next",
          "我不知道现在的时间，没法判断下一个是哪个",
        )
      : (overview?.placedOmitted ?? 0) > 0
        ? say(
            language,
            "Your week has more placed reviews than I can see at once, so I cannot tell which comes next",
            "本周安排的复习太多，我一次看不全，没法判断下一个是哪个",
          )
        : say(
            language,
            "No placed review is still to come in this week's schedule",
            "本周日程里已经没有还没开始的复习",
          );
    return {
      question: say(
        language,
        `Which review do you mean by "${phrases[0]}"? ${why}. Answer with its name or id${listed}.`,
        `你说的“${phrases[0]}”是哪个复习？${why}。请回答任务名称或 id${listed}。`,
      ),
    };
  }
  const shared = overview!.placedTasks.filter((task) => task.name === next.name).length > 1;
  const name = shared ? next.id : next.name;
  const swap = (phrase: string) => (isNextReview(phrase) && !named(phrase) ? name : phrase);
  const renamed: ScheduleRequest =
    request.kind === "swap"
      ? { ...request, first: swap(request.first), second: swap(request.second) }
      : ({ ...request, task: swap((request as { task: string }).task) } as ScheduleRequest);
  const where = placeWords(next.place, facts, language);
  return {
    request: renamed,
    said: say(
      language,
      `Your next review is ${JSON.stringify(next.name)} (${where}). `,
      `你的下一个复习是“${next.name}”（${where}）。`,
    ),
  };
}
