/**
 * The offline policy's step for every review of a day at once ("skip all my reviews today", "I'm sick today, skip
 * everything", "clear tomorrow", "今天的复习都跳过", "把明天清空", "I did all of today's reviews"): list the tasks,
 * then one batch card with a write for each review placed there — `skip` (skipped this week), `unplace` (pending
 * again), `mark_done` or `mark_missed` (those that have started too: done or missed is what happened) — each decided
 * on the card; a day with no review placed says so and proposes nothing. Timetable events stay: only reviews are
 * cleared.
 */
import { PART_OF_DAY_ZH, say, sayList, type Language } from "../../contracts/language.js";
import { finish, proposeAll, read, type Decision, type Finish } from "../decisions.js";
import type { RoundView } from "../prompt-reading.js";
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { markedText, unplacedText, type ListedTask } from "../../tools/schedule/tools/index.js";
import { appliedWriteSummary, callResultOf, refusalOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { datingOf, dayName, hasStarted, placeWords, resolveDays, slotRangeOf, type WeekFacts } from "./week-facts.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";

type ClearDay = Extract<ScheduleRequest, { kind: "clear_day" }>;

/**
 * What each way of clearing a day does: the write each review gets (and the status a mark leaves it in), the headings
 * of the step's summary for one day or several (`summaryInChinese` says each write in Chinese after it), what the
 * summary says when the user declined the card, and the verb said when there is nothing to do. A skip or a clear
 * leaves a review that has started where it is (the past is marked done or missed instead); done and missed are
 * about those too.
 */
const HOW = {
  skip: {
    tool: "skip",
    to: "skipped",
    heading: [SUMMARY_WORDS.en.skippedDay, SUMMARY_WORDS.en.skippedDays],
    declined: "declinedSkipDay",
    verb: { en: "skip", zh: "跳过" },
    leavesStarted: true,
  },
  unplace: {
    tool: "unplace",
    to: undefined,
    heading: [SUMMARY_WORDS.en.clearedDay, SUMMARY_WORDS.en.clearedDays],
    declined: "declinedClearDay",
    verb: { en: "clear", zh: "撤下" },
    leavesStarted: true,
  },
  done: {
    tool: "mark_done",
    to: "done",
    heading: [SUMMARY_WORDS.en.markedDayDone, SUMMARY_WORDS.en.markedDaysDone],
    declined: "declinedDoneDay",
    verb: { en: "mark done", zh: "记为已完成" },
    leavesStarted: false,
  },
  missed: {
    tool: "mark_missed",
    to: "missed",
    heading: [SUMMARY_WORDS.en.markedDayMissed, SUMMARY_WORDS.en.markedDaysMissed],
    declined: "declinedMissedDay",
    verb: { en: "mark missed", zh: "记为错过" },
    leavesStarted: false,
  },
} as const;

/** The heading of a step's summary, for one day or several. */
function headingOf(request: ClearDay, facts: WeekFacts): string {
  return HOW[request.how].heading[resolveDays(request.where.only, facts).length > 1 ? 1 : 0];
}

/**
 * The days a step names, as a person reads them after "placed": "on Mon 7 Dec and Tue 8 Dec", "on Mon 7 Dec, Wed 9 Dec
 * and Fri 11 Dec"; three days or more in a row as a span, "from Wed 13 Mar to Sun 17 Mar" (what is left of a week).
 */
function daysWords(days: readonly number[], facts: WeekFacts, language: Language): string {
  const names = days.map((day) => dayName(day, facts, language));
  const inARow = days.every((day, index) => index === 0 || day === days[index - 1]! + 1);
  if (days.length >= 3 && inARow)
    return say(language, `from ${names[0]} to ${names.at(-1)}`, `${names[0]}到${names.at(-1)}`);
  return say(language, `on ${sayList(names, language)}`, sayList(names, language));
}

/** Clear a day: list the tasks, propose a skip / unplace for each review placed there, and say how the card ended. */
export function clearDayStep(
  rounds: RoundView[],
  request: ClearDay,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const tool = HOW[request.how].tool;
  const listed = rounds.findLastIndex((round) => round.name === "list_tasks" && !round.summarised);
  // The step's writes so far, over all its cards.
  const writes = rounds.filter((round) => round.name === tool && !round.summarised);
  const listing = listed === -1 ? undefined : toolDataOf(rounds[listed], "list_tasks");
  const days = resolveDays(request.where.only, facts);
  // ("free up this evening": the part of the day said with its days — never "no review is placed on Monday" when one
  // is, in its afternoon.)
  const part = request.where.slots.part;
  const when = part
    ? say(
        language,
        `${daysWords(days, facts, language)} in the ${part}`,
        `${daysWords(days, facts, language)}${PART_OF_DAY_ZH[part]}`,
      )
    : daysWords(days, facts, language);
  // The card's writes are answered: the day is looked at again as it is now (another thread may have put a review on
  // it meanwhile; the code ends the step itself when the week is the one the card showed).
  const lastWrite = rounds.findLastIndex((round) => round.name === tool);
  if (writes.length > 0 && listed > lastWrite) {
    const decided = new Set(writes.map((round) => String(round.arguments.task_id)));
    const since = (listing?.tasks ?? []).filter(
      (task) => !decided.has(task.id) && onTheDay(task, request, days, facts) && !startedToStay(task, request, facts),
    );
    if (since.length === 0) return ending(writes, listing?.tasks ?? [], request, end, language, facts);
    return proposeDay(since, [], request, when, end, language, facts);
  }
  if (!listing || writes.length > 0)
    return read(
      writes.length > 0
        ? say(language, `Checking what is placed ${when} again as it is now.`, `再看一下${when}现在的安排。`)
        : say(language, `Looking up what is placed ${when}.`, `正在查找${when}安排的复习。`),
      "list_tasks",
      { limit: 100 },
      writes.length > 0
        ? "the card is answered: is anything still placed on the day?"
        : "need the reviews placed on the day",
    );
  const placed = listing.tasks.filter((task) => onTheDay(task, request, days, facts));
  // A review whose place has started is left as it is, skipped or cleared alike (the past is fixed: it is marked done
  // or missed instead): "skip all my reviews today" at 19:10 is about the reviews still ahead.
  const started = startedAmong(placed, request, facts);
  const chosen = placed.filter((task) => !started.includes(task));
  const startedNote = started.length > 0 ? ` ${startedWords(started, language)}` : "";
  if (chosen.length === 0) {
    const none =
      placed.length === 0
        ? say(
            language,
            `No review is placed ${when}, so there is nothing to ${HOW[request.how].verb.en}.`,
            `${when}没有安排复习，没有需要${HOW[request.how].verb.zh}的。`,
          )
        : startedNote.trim();
    return finish(
      end,
      none,
      placed.length === 0
        ? say(language, `nothing to do: no review is placed ${when}`, `无需操作：${when}没有安排复习`)
        : say(language, "nothing to do: every review there has started", "无需操作：那里的复习都已经开始"),
    );
  }
  return proposeDay(chosen, started, request, when, end, language, facts);
}

/** A review listed as placed on the request's days (and within its slots, when it names some). */
function onTheDay(task: ListedTask, request: ClearDay, days: readonly number[], facts: WeekFacts): boolean {
  const window = slotRangeOf(request.where.slots, facts);
  return (
    task.kind === "placed" &&
    task.slots.some((range) => days.includes(range.day) && range.start <= window.to && range.end >= window.from)
  );
}

/**
 * A review a day's clear or skip leaves where it is: its place has started (the past is marked done or missed instead).
 * Marked done, it is one of those the step is about.
 */
function startedToStay(task: ListedTask, request: ClearDay, facts: WeekFacts): boolean {
  return HOW[request.how].leavesStarted && task.kind === "placed" && hasStarted(task.slots[0]!, facts);
}

/** The batch card of a write for each of `chosen` (`started`: reviews left where they are, said as such). */
function proposeDay(
  chosen: readonly ListedTask[],
  started: readonly ListedTask[],
  request: ClearDay,
  when: string,
  end: Finish,
  language: Language,
  facts: WeekFacts,
): Decision {
  const dating = datingOf(facts);
  const { tool, to } = HOW[request.how];
  const startedNote = started.length > 0 ? say(language, " ", "") + startedWords(started, language) : "";
  const names = chosen
    .map((task) => `${JSON.stringify(task.name)} (${placeWords(task.slots[0]!, facts, language)})`)
    .join(say(language, ", ", "、"));
  const speak =
    request.how === "done" || request.how === "missed"
      ? say(
          language,
          `Marking the ${chosen.length} review(s) placed ${when} ${request.how}: ${names}. Each is on the card to approve or reject.`,
          `把${when}安排的 ${chosen.length} 个复习${HOW[request.how].verb.zh}：${names}。卡片上逐项列出，可以分别同意或拒绝。`,
        )
      : tool === "skip"
        ? say(
            language,
            `Skipping the ${chosen.length} review(s) placed ${when}: ${names}. Each is on the card to approve or reject.`,
            `跳过${when}安排的 ${chosen.length} 个复习：${names}。卡片上逐项列出，可以分别同意或拒绝。`,
          )
        : say(
            language,
            `Taking the ${chosen.length} review(s) placed ${when} off the schedule: ${names}. They become pending again, to place another time; your timetable's events stay. Each is on the card to approve or reject.`,
            `把${when}安排的 ${chosen.length} 个复习从日程上撤下：${names}。它们会重新待安排，可以另找时间；课表上的活动不动。卡片上逐项列出，可以分别同意或拒绝。`,
          );
  const expected = chosen.map((task) =>
    to !== undefined
      ? markedText({ id: task.id, from: "placed", to })
      : unplacedText({ id: task.id, from: task.slots[0]!, ...(task.hostId ? { hostId: task.hostId } : {}) }, dating),
  );
  return proposeAll(
    `${speak}${startedNote}`,
    chosen.map((task) => ({ name: tool, arguments: { task_id: task.id } })),
    say(language, `every review placed ${when}, as asked`, `按要求：${when}安排的每个复习`),
    {
      action: end,
      // The reviews that had started are named in the answer too (the card's speech is not all a chat shows).
      goalCheck: `${headingOf(request, facts)}: ${[...expected, ...(started.length > 0 ? [startedWords(started, language).replace(/[.。]\s*$/, "")] : [])].join("; ")}`,
    },
  );
}

/** The reviews among `placed` whose place has started by the prompt's clock: left as they are. */
function startedAmong(placed: readonly ListedTask[], request: ClearDay, facts: WeekFacts): ListedTask[] {
  return placed.filter((task) => startedToStay(task, request, facts));
}

/** "“X” has started, so it stays (mark it done or missed instead)." in the user's language. */
function startedWords(started: readonly ListedTask[], language: Language): string {
  return say(
    language,
    `${started.map((task) => JSON.stringify(task.name)).join(", ")} has started, so it stays (mark it done or missed instead).`,
    `${started.map((task) => `“${task.name}”`).join("、")}已经开始，保留不动（可以记为已完成或错过）。`,
  );
}

/** How the card ended: what applied, what the user declined, what the week refused. */
function ending(
  writes: RoundView[],
  tasks: readonly ListedTask[],
  request: ClearDay,
  end: Finish,
  language: Language,
  facts: WeekFacts,
): Decision {
  const dating = datingOf(facts);
  const nameOf = (round: RoundView) => {
    const id = String(round.arguments.task_id);
    return tasks.find((task) => task.id === id)?.name ?? id;
  };
  const applied = writes.filter((round) => callResultOf(round) === "applied");
  const declined = writes.filter((round) => callResultOf(round) === "rejected");
  const refused = writes.filter((round) => callResultOf(round) === "failed");
  const parts = [
    ...applied.map((round) => appliedWriteSummary(round, language, dating)),
    ...(declined.length > 0
      ? [
          say(
            language,
            `you kept ${declined.map((round) => JSON.stringify(nameOf(round))).join(", ")} as it was`,
            `你保留了${declined.map((round) => `“${nameOf(round)}”`).join("、")}`,
          ),
        ]
      : []),
    ...refused.map((round) => notCarriedOut(refusalOf(round, "en", dating)).summary),
  ];
  // The reviews of the day that had started were left out of the card: the answer says so, not only the card's speech.
  const days = resolveDays(request.where.only, facts);
  const started = startedAmong(
    tasks.filter(
      (task) =>
        !writes.some((round) => String(round.arguments.task_id) === task.id) && onTheDay(task, request, days, facts),
    ),
    request,
    facts,
  );
  if (started.length > 0) parts.push(startedWords(started, language).replace(/[.。]\s*$/, ""));
  if (applied.length === 0 && refused.length === 0)
    return finish(
      end,
      say(language, "Understood: I left the day as it was.", "好的，这一天保持原样。"),
      notCarriedOut(saySummary(language, HOW[request.how].declined)),
      "the user declined the change",
    );
  // Only writes the user declined or the week refused: the summary says so without the heading of a change made.
  return finish(end, "", applied.length > 0 ? `${headingOf(request, facts)}: ${parts.join("; ")}` : parts.join("; "));
}
