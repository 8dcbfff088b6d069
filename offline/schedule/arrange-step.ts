/**
 * The arrange step of the offline policy, through the same tools a model uses (seed 003: the backend decides, the
 * model chooses): `propose_arrangement` finds where the tasks in scope go — as many as fit, hardest first, spread over
 * the days, exact for small sets, within the step's days and slots and the user's feedback — and the policy chooses
 * its proposal (`choose_candidate` a1), whose placements go out as one batch card (one action request per placement,
 * decided one by one). The card's `then` ends the step once every placement applies unchanged.
 *
 * With `writesPerCard`, the proposal holds at most that many placements; once they apply the step lists again for
 * the rest. Tasks named by the request are matched against a `list_tasks` listing first.
 *
 * Feedback on a placement: "skip this one" (or a rejection without a comment) leaves the task pending; "not Monday",
 * "Friday instead", "in the evening", "later" / "earlier" (in the same day) re-arrange that task under the
 * constraint, and the rejected place is never proposed again; anything else leaves the task pending and says so.
 * Working memory (the scratchpad) carries the skipped tasks and the constraints, because older tool rounds of the
 * step are compressed away.
 *
 * Its parts: that working memory (`arrange-memory.ts`), what the step covers (`arrange-scope.ts`), task ids told by name
 * (`arrange-names.ts`), and how it ends (`arrange-ending.ts`).
 */
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import { finish, propose, type Decision, type Finish, type Then } from "../decisions.js";
import { daysOffIn, feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import { callResultOf, failureOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { section, userLanguage, type PromptView, type RoundView } from "../prompt-reading.js";
import { cannotActOn } from "./replies.js";
import { dayLabelIn, resolveSlotWindow, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { say, type Language } from "../../contracts/language.js";
import { SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { datingOf, resolveDays, weekdayOf, type WeekFacts } from "./week-facts.js";
import { placeName } from "../../tools/schedule/calendar.js";
import { type ArrangeMemory, type Avoid, readMemory, remember } from "./arrange-memory.js";
import { type Names, namesOf, taskName } from "./arrange-names.js";
import { arrangeSummary, finishArrange, latestArrangement } from "./arrange-ending.js";
import { listArrangement, scopeOf } from "./arrange-scope.js";

/** The arrange step's decision. */
export function arrangeStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  facts: WeekFacts,
  end: Finish,
  writesPerCard = Number.POSITIVE_INFINITY,
): Decision {
  const { rounds } = view;
  const language = userLanguage(view);
  const names = namesOf(view);
  const memory = readMemory(section(view.context, "scratchpad"));
  // "Arrange a review tomorrow morning": no more placements than were asked for, counting those already applied.
  const remaining = (request.count ?? Number.POSITIVE_INFINITY) - placedByStep(rounds);
  const list = (speak: string) =>
    listArrangement(view, request, memory, facts, end, Math.min(writesPerCard, remaining), language, names, speak);
  const last = rounds.at(-1);
  if (!last) return list(say(language, "Finding room for the pending tasks.", "正在为待安排的任务寻找位置。"));
  if (remaining <= 0)
    return finishArrange(view, memory, leftOutOf(view, request, memory, end, language, names), end, language, names);

  if (last.name === "propose_arrangement" && !last.summarised) {
    if (callResultOf(last) === "failed")
      return finish(
        end,
        say(language, `I could not arrange the tasks: ${failureOf(last)}`, `无法安排这些任务：${failureOf(last)}`),
        notCarriedOut(failureOf(last)),
        "the backend could not arrange",
      );
    const listing = toolDataOf(last, "propose_arrangement");
    if (!listing)
      return finish(
        end,
        say(
          language,
          "I could not read the proposed arrangement, so nothing was placed.",
          "无法读取建议的安排，所以没有安排任何任务。",
        ),
        notCarriedOut(SUMMARY_WORDS.en.arrangementUnread),
        "no data",
      );
    return chooseArrangement(view, listing, request, memory, facts, end, language, names, remaining);
  }
  if (last.name === "list_tasks" || last.name === "update_working_memory") {
    // After a card with feedback: re-arrange only when the feedback constrained a task, a placement failed, or more fit.
    if (last.name === "update_working_memory" && !relistAfterCard(rounds.slice(0, -1)))
      return finishArrange(view, memory, leftOutOf(view, request, memory, end, language, names), end, language, names);
    return list(say(language, "Finding room for the tasks.", "正在为这些任务寻找位置。"));
  }
  if (last.name === "choose_candidate" && callResultOf(last) === "failed") {
    if (rounds.filter((round) => round.name === "choose_candidate" && callResultOf(round) === "failed").length >= 2)
      return finish(
        end,
        say(language, `I could not choose the arrangement: ${failureOf(last)}`, `无法选择这个安排：${failureOf(last)}`),
        notCarriedOut(failureOf(last)),
        "choosing failed twice",
      );
    return list(say(language, "Listing the arrangement again.", "正在重新列出安排。"));
  }
  if (last.name !== "place")
    return list(say(language, "Finding room for the pending tasks.", "正在为待安排的任务寻找位置。"));

  // A card was answered: act on what its answers said.
  const card = lastCard(rounds);
  const rejected = card.filter((round) => callResultOf(round) === "rejected");
  if (rejected.length === 0) {
    if (card.some((round) => callResultOf(round) === "failed"))
      return list(
        say(language, "A placement failed; reading the week again.", "有一项安排没有成功，正在重新读取本周日程。"),
      );
    if ((latestArrangement(view)?.later ?? 0) > 0)
      return list(say(language, "Finding room for the rest of the tasks.", "正在为其余任务寻找位置。"));
    return finishArrange(view, memory, leftOutOf(view, request, memory, end, language, names), end, language, names);
  }
  let next = memory;
  const said: string[] = [];
  for (const round of rejected) {
    const answer = afterRejection(round, next, facts, language, names);
    next = answer.memory;
    said.push(answer.speak);
  }
  return remember(
    next,
    said.join(" "),
    "keep the skips and constraints in working memory so they survive context compression",
  );
}

/** How many placements of the step have applied. */
function placedByStep(rounds: readonly RoundView[]): number {
  return rounds.filter((round) => round.name === "place" && callResultOf(round) === "applied").length;
}

/** The place rounds of the last card answered (the rounds after the last that is not a placement). */
function lastCard(rounds: readonly RoundView[]): readonly RoundView[] {
  return rounds.slice(rounds.findLastIndex((round) => round.name !== "place") + 1);
}

/** True when the card before a memory write needs the week arranged again: a constraint to honour, a failure, or more that fit. */
function relistAfterCard(rounds: readonly RoundView[]): boolean {
  const card = lastCard(rounds);
  if (card.length === 0) return true;
  if (card.some((round) => callResultOf(round) === "failed")) return true;
  if (
    card.some(
      (round) =>
        callResultOf(round) === "rejected" && parseFeedback(feedbackOfResult(round.result)).kind === "constrain",
    )
  )
    return true;
  const listing = toolDataOf(
    rounds.findLast((round) => round.name === "propose_arrangement"),
    "propose_arrangement",
  );
  return listing === undefined || (listing.later ?? 0) > 0;
}

/** What the step leaves pending, with why: the names that match nothing, and what the latest arrangement left out. */
function leftOutOf(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  end: Finish,
  language: Language,
  names: Names,
  // As many as were asked for placed (or on the card): the rest were not asked for, so none of them is left out.
  filled = request.count !== undefined && placedByStep(view.rounds) >= request.count,
): string[] {
  const scope = scopeOf(view, request, memory, end, language, names);
  const named = scope.kind === "scope" ? scope.leftOut : [];
  const skipped = new Set(memory.skip);
  return [
    ...named,
    ...(filled ? [] : (latestArrangement(view)?.left ?? []))
      .filter((entry) => !skipped.has(entry.id))
      .map((entry) => `${entry.id} (${entry.why})`),
  ];
}

/** The backend's proposal, chosen: its placements go out on one card (ending the step once they apply, when it holds the rest). */
function chooseArrangement(
  view: PromptView,
  listing: ScheduleListing,
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  memory: ArrangeMemory,
  facts: WeekFacts,
  end: Finish,
  language: Language,
  names: Names,
  remaining: number,
): Decision {
  const proposal = listing.candidates[0];
  const filled = request.count !== undefined && (proposal?.writes.length ?? 0) >= remaining;
  const leftOut = leftOutOf(view, request, memory, end, language, names, filled);
  if (!proposal) return finishArrange(view, memory, leftOut, end, language, names);
  const places =
    proposal.places ??
    proposal.writes.map((write) => ({
      id: String(write.arguments.task_id),
      day: Number(write.arguments.day),
      start: Number(write.arguments.slot_start),
      end: Number(write.arguments.slot_start),
    }));
  const day = (entry: { day: number }) => dayLabelIn(entry.day, (candidate) => weekdayOf(facts, candidate), language);
  const name = (entry: { id: string }) => taskName(entry.id, names, language);
  // By date and clock time in a dated window, as the card names it; else by day and slots.
  const dating = datingOf(facts);
  const where = (entry: { id: string; day: number; start: number; end: number }) =>
    dating
      ? say(
          language,
          `${name(entry)} on ${placeName(dating, entry, language)}`,
          `${name(entry)}到${placeName(dating, entry, language)}`,
        )
      : say(
          language,
          `${name(entry)} on ${day(entry)} slots ${entry.start}-${entry.end}`,
          `${name(entry)}到${day(entry)}第${entry.start}-${entry.end}节`,
        );
  // With a count, what fits beyond it was not asked for: the card holds the last of it.
  const later = filled ? 0 : (listing.later ?? 0);
  const fit = places.length + later;
  const total = fit + (listing.left?.length ?? 0);
  const found =
    request.count !== undefined
      ? ""
      : say(language, `Found room for ${fit} of ${total} task(s). `, `为 ${total} 个任务中的 ${fit} 个找到了位置。`);
  const placing =
    places.length === 1
      ? say(language, `Placing ${where(places[0]!)}.`, `安排${where(places[0]!)}。`)
      : say(
          language,
          `Placing ${places.length} tasks: ${places.map(where).join("; ")}.`,
          `安排 ${places.length} 个任务：${places.map(where).join("；")}。`,
        );
  const then: Then | undefined = later === 0 ? { action: end, goalCheck: arrangeSummary(memory, leftOut) } : undefined;
  return propose(
    `${found}${placing}`,
    "choose_candidate",
    { id: proposal.id },
    say(language, "the backend's arrangement places as many as fit", "后台的安排放下了尽可能多的任务"),
    then,
  );
}

/**
 * A rejected placement: skip the task, or re-plan it under the feedback's constraint. The rejected place itself is
 * never proposed again in the step, whatever the feedback said.
 */
function afterRejection(
  round: RoundView,
  memory: ArrangeMemory,
  facts: WeekFacts,
  language: Language,
  names: Names,
): { memory: ArrangeMemory; speak: string } {
  const taskId = String(round.arguments.task_id);
  const task = taskName(taskId, names, language);
  const day = Number(round.arguments.day);
  const start = Number(round.arguments.slot_start);
  const text = feedbackOfResult(round.result);
  const feedback = parseFeedback(text);
  // A day the user called off is a rule for every task of the step from now on.
  const off = resolveDays({ weekdays: daysOffIn(text), days: [] }, facts);
  if (off.length > 0) memory = { ...memory, daysOff: [...new Set([...memory.daysOff, ...off])] };
  if (feedback.kind !== "constrain") {
    const speak =
      feedback.kind === "unclear"
        ? cannotActOn(feedback.text, { en: `so I'm leaving ${task} pending`, zh: `${task} 先保持待安排` })
        : say(language, `Skipping ${task}: you rejected its placement.`, `跳过${task}：你拒绝了它的安排。`);
    return { memory: { ...memory, skip: [...memory.skip, taskId] }, speak };
  }
  const limits: Avoid = { notDays: [], notAt: [], ...memory.avoid.get(taskId) };
  limits.notDays = [...new Set([...limits.notDays, ...resolveDays(feedback.not, facts)])];
  if (Number.isFinite(day) && Number.isFinite(start)) limits.notAt = [...new Set([...limits.notAt, `${day}:${start}`])];
  // A day to avoid is never a day to use: "Friday is my day off" after "Friday instead" leaves any other day.
  const only = resolveDays(feedback.only, facts).filter((candidate) => !limits.notDays.includes(candidate));
  if (only.length > 0) limits.days = only;
  else if (limits.days) limits.days = limits.days.filter((candidate) => !limits.notDays.includes(candidate));
  if (limits.days?.length === 0) delete limits.days;
  if (feedback.part)
    ({ from: limits.from, to: limits.to } = resolveSlotWindow({ part: feedback.part }, facts.slotsPerDay));
  // "Later" and "earlier" mean later or earlier on the same day.
  if ((feedback.later || feedback.earlier) && only.length === 0 && Number.isFinite(day)) limits.days = [day];
  if (feedback.later && Number.isFinite(start)) limits.from = Math.max(limits.from ?? 1, start + 1);
  if (feedback.earlier && Number.isFinite(start))
    limits.to = Math.min(limits.to ?? Number.POSITIVE_INFINITY, start - 1);
  const avoid = new Map(memory.avoid).set(taskId, limits);
  return {
    memory: { ...memory, avoid },
    speak: say(
      language,
      `Understood: finding ${task} another place (${text}).`,
      `明白：为${task}另找位置（${text}）。`,
    ),
  };
}
