/**
 * The offline policy's steps for a task's life beyond a mark (issue 47 items 4 and 8): undoing the last change
 * (`propose_undo`, then its candidate chosen: the undo is a card of ordinary writes), rescheduling a missed review to
 * the candidates' best place (`propose_reschedule`), the week's health (`analyze_health`), and what is left before
 * an exam (the tasks due before it, and how each stands).
 */
import { say, weekdayName, type Language } from "../../contracts/language.js";
import { finish, proposeAll, read, type Decision, type Finish } from "../decisions.js";
import type { RoundView } from "../prompt-reading.js";
import type { HealthIssueKind, HealthReport } from "../../tools/schedule/health.js";
import {
  NOTHING_TO_UNDO,
  UNDO_WRITES,
  type RecoveryListing,
  type ListedTask,
  type RescheduleListing,
  type UndoListing,
} from "../../tools/schedule/tools/index.js";
import { NO_PLACE_FITS, NOTHING_MISSED, rescheduleEmptyText } from "../../tools/schedule/tools/reschedule.js";
import { missedReasonIn, undoReasonSaid } from "../../tools/schedule/summary-words.js";
import { listInChinese, undoReasonNamed } from "../../tools/schedule/undo-words.js";
import type { Dating } from "../../tools/schedule/format.js";
import { dayOfWeekNumber, TASK_STATUS_ZH, type TaskStatus } from "../../tools/schedule/state.js";
import { appliedWriteText, callResultOf, failureOf, notCarriedOut } from "./tool-data.js";
import { writeRejectionFeedback } from "../../contracts/rejections.js";
import { matchTask } from "./task-matching.js";
import { dayName, firstDayOf, hasStarted, placeWords, type WeekFacts } from "./week-facts.js";
import type { Where } from "../../tools/schedule/request-parsing.js";
import { saySummary, SUMMARY_WORDS, type SummaryKey } from "../../tools/schedule/summary-phrases.js";

/** The writes an undo or a reschedule card is made of: any inverse an undo offers, and a reschedule's place. */
const CARD_WRITES: ReadonlySet<string> = new Set([...UNDO_WRITES, "place"]);

/** The last whole round of `tool` and its data, when the data has the listing's shape. */
function listingRound<T>(
  rounds: readonly RoundView[],
  tool: string,
): { index: number; round: RoundView; data: T | undefined } | undefined {
  const index = rounds.findLastIndex((round) => round.name === tool && !round.summarised);
  if (index === -1) return undefined;
  const round = rounds[index]!;
  const data = round.data as { candidates?: unknown } | undefined;
  return { index, round, data: data && Array.isArray(data.candidates) ? (round.data as T) : undefined };
}

/**
 * How a card chosen from a listing ended, once answered (undefined while nothing after the listing was decided): the
 * applied writes said, else why nothing changed (the user declined it, or the week refused it).
 */
function cardEnding(
  rounds: readonly RoundView[],
  after: number,
  end: Finish,
  dating: Dating,
  language: Language,
  what: { done: string; none: SummaryKey; note?: readonly string[] },
): Decision | undefined {
  const later = rounds.slice(after + 1);
  const chosen = later.find((round) => round.name === "choose_candidate");
  if (chosen && callResultOf(chosen) === "failed") return finish(end, "", notCarriedOut(failureOf(chosen)));
  const writes = later.filter((round) => CARD_WRITES.has(round.name));
  if (writes.length === 0) return undefined;
  const applied = writes.filter((round) => callResultOf(round) === "applied");
  if (applied.length > 0)
    return finish(
      end,
      "",
      `${what.done}: ${[...applied.map((round) => appliedWriteText(round, dating)), ...(what.note ?? [])].join("; ")}`,
    );
  if (writes.some((round) => callResultOf(round) === "rejected"))
    return finish(
      end,
      say(language, "Understood: I left the week as it was.", "好的，这一周保持原样。"),
      notCarriedOut(SUMMARY_WORDS.en[what.none]),
      "the user declined the change",
    );
  return finish(end, "", notCarriedOut(writes.map(failureOf).join("; ")));
}

/** What a listing step asks for first, and how it tells its card's ending. */
interface ListingAsk<T = unknown> {
  tool: string;
  speak: string;
  arguments: Record<string, unknown>;
  reason: string;
  /**
   * The ending's words: what was done when applied (or read from the listing: an undo of an undo says it redid),
   * what was declined when not (a summary phrase).
   */
  done: string | ((listing: T | undefined) => string);
  none: SummaryKey;
  /** What the applied ending says after the writes, read from the listing (the reviews a reschedule left missed). */
  endingNote?: (listing: T | undefined) => string[];
}

/**
 * The first part of a listing's step (undo, reschedule): read the listing when it is not there yet, say how its card
 * ended once it did; otherwise the listing (and its round) to choose from.
 */
function listingStage<T>(
  rounds: readonly RoundView[],
  end: Finish,
  dating: Dating,
  language: Language,
  ask: ListingAsk<T>,
): { decision: Decision } | { listing: T | undefined; round: RoundView } {
  const listed = listingRound<T>(rounds, ask.tool);
  if (!listed) return { decision: read(ask.speak, ask.tool, ask.arguments, ask.reason) };
  const note = ask.endingNote?.(listed.data) ?? [];
  const done = typeof ask.done === "string" ? ask.done : ask.done(listed.data);
  const ended = cardEnding(rounds, listed.index, end, dating, language, { done, none: ask.none, note });
  if (ended) return { decision: ended };
  return { listing: listed.data, round: listed.round };
}

/**
 * The writes an undo listing cannot take back, as a person reads them: each by its tasks' names (JSON-quoted; by its
 * tool and ids when the listing names none, as one read back from its text), its reason with the ids it lists named.
 */
function keptNamed(listing: UndoListing | undefined): Array<{ subject: string; why: string; inPart: boolean }> {
  const names = listing?.names ?? {};
  return (listing?.kept ?? []).map((entry) => {
    const ids = entry.write.split(" ").slice(1);
    const known = ids.length > 0 && ids.every((id) => Object.hasOwn(names, id));
    return {
      subject: known ? ids.map((id) => JSON.stringify(names[id])).join(", ") : entry.write,
      why: undoReasonNamed(entry.why, names),
      // A write the candidate takes back, other than as it was (a review back pending, not on its passed place).
      inPart: (listing?.undone ?? []).some((undone) => partOf(entry.write, undone)),
    };
  });
}

/** True when `write` (`tool id…`) names the tool of `undone` and only tasks it names: a part of a write undone. */
function partOf(write: string, undone: string): boolean {
  const [tool, ...ids] = write.split(" ");
  const [undoneTool, ...undoneIds] = undone.split(" ");
  return tool === undoneTool && ids.every((id) => undoneIds.includes(id));
}

/** A write an undo took back other than as it was, and why, in `language` (the phrase `undoneInPart`). */
function undoneInPart(language: Language, entry: { subject: string; why: string }): string {
  return language === "zh"
    ? saySummary("zh", "undoneInPart", {
        undoSubject: listInChinese(entry.subject),
        undoWhy: undoReasonSaid(entry.why, "zh"),
      })
    : saySummary("en", "undoneInPart", { undoSubject: entry.subject, undoWhy: entry.why });
}

/** "Undo that": list the undo, choose it (its card), and say how it ended. */
export function undoStep(rounds: readonly RoundView[], end: Finish, dating: Dating, language: Language): Decision {
  const stage = listingStage<UndoListing>(rounds, end, dating, language, {
    tool: "propose_undo",
    speak: say(language, "Looking up the last change.", "正在查找上一次的修改。"),
    arguments: {},
    reason: "the undo of the last change is listed by the backend",
    done: (listing) => SUMMARY_WORDS.en[listing?.redoes ? "undidUndo" : "undone"],
    none: "declinedUndo",
    // The answer says what came back other than as it was, and why (stored in English, said from the phrase).
    endingNote: (listing) =>
      keptNamed(listing)
        .filter((entry) => entry.inPart)
        .map((entry) => undoneInPart("en", entry)),
  });
  if ("decision" in stage) return stage.decision;
  const { listing, round: listedRound } = stage;
  const named = keptNamed(listing);
  const kept = named.map((entry) =>
    entry.inPart
      ? undoneInPart(language, entry)
      : say(
          language,
          `${entry.subject} cannot be undone: ${entry.why}`,
          `${listInChinese(entry.subject)} 无法撤销：${undoReasonSaid(entry.why, "zh")}`,
        ),
  );
  const candidate = listing?.candidates[0];
  if (!candidate) {
    // Said once, by the answer (the step's summary is what it reads): a line spoken here as well said it twice.
    // Stored in English from the summary phrases; an answer says it in the user's language from the same phrases.
    const why = listing?.empty ?? failureOf(listedRound);
    const undoReasons =
      why === NOTHING_TO_UNDO.elsewhere
        ? saySummary("en", "lastChangeElsewhere", { tools: (listing?.elsewhere ?? []).join(", ") })
        : [why, ...named.map((entry) => `${entry.subject}: ${entry.why}`)].join("; ");
    return finish(end, "", notCarriedOut(saySummary("en", "nothingToUndo", { undoReasons })), "nothing to undo");
  }
  const count = candidate.writes.length;
  return {
    speak: [
      // The card lists each write by name (the candidate's summary is the tools' own words, with ids).
      listing?.redoes
        ? // The last change was itself an undo: undoing it redoes what that undo took back, and is said to.
          say(
            language,
            `Your last change was an undo, so undoing it redoes what it took back (${count > 0 ? `${count} change(s), ` : ""}each listed on the card).`,
            `你上一次的修改本身就是一次撤销，撤销它就会重做被撤销的修改（${count > 0 ? `共 ${count} 项修改，` : ""}卡片上逐项列出）。`,
          )
        : say(
            language,
            `Undoing the last change (${count > 0 ? `${count} change(s), ` : ""}each listed on the card).`,
            // Read back from text (a model server without artifacts), a listing has no writes to count.
            `撤销上一次的修改（${count > 0 ? `共 ${count} 项修改，` : ""}卡片上逐项列出）。`,
          ),
      ...kept,
    ].join("\n"),
    action: "confirm",
    reason: listing?.redoes
      ? say(
          language,
          "the backend's undo of the last applied card, itself an undo: it redoes what that undo took back",
          "后端给出的、撤销上一张已执行卡片（它本身是一次撤销）的修改：重做被它撤销的修改",
        )
      : say(language, "the backend's undo of the last applied card", "后端给出的、撤销上一张已执行卡片的修改"),
    tool_call: { name: "choose_candidate", arguments: { id: candidate.id } },
  };
}

/** "Recover": list the at-risk notice's change, choose it (its card), and say how it ended. */
export function recoverStep(rounds: readonly RoundView[], end: Finish, dating: Dating, language: Language): Decision {
  const stage = listingStage<RecoveryListing>(rounds, end, dating, language, {
    tool: "propose_recovery",
    speak: say(language, "Looking for the change that recovers the most.", "正在查找补救最多的修改。"),
    arguments: {},
    reason: "the change that recovers the reviews at risk is listed by the backend",
    done: SUMMARY_WORDS.en.recovered,
    none: "declinedRecovery",
  });
  if ("decision" in stage) return stage.decision;
  const { listing, round: listedRound } = stage;
  const candidate = listing?.candidates[0];
  if (!candidate) {
    const recoveryWhy = listing?.empty ?? failureOf(listedRound);
    return finish(end, "", notCarriedOut(saySummary("en", "noChangeToRecover", { recoveryWhy })), "nothing to recover");
  }
  const names = (listing?.recovers ?? []).map((entry) => entry.name);
  const off = (listing?.displaces ?? []).map((entry) => entry.name);
  return {
    speak: [
      say(
        language,
        `The change that recovers ${names.map((name) => JSON.stringify(name)).join(", ")}: ${candidate.summary}.`,
        `补救 ${names.map((name) => `“${name}”`).join("、")} 的修改（卡片上逐项列出）。`,
      ),
      ...(off.length > 0
        ? [
            say(
              language,
              `To make room it takes ${off.map((name) => JSON.stringify(name)).join(", ")} off the week (pending again).`,
              `为腾出时间，会把 ${off.map((name) => `“${name}”`).join("、")} 从这一周移出（重新待安排）。`,
            ),
          ]
        : []),
    ].join("\n"),
    action: "confirm",
    reason: say(language, "the backend's change that recovers the most", "后端给出的、补救最多的修改"),
    tool_call: { name: "choose_candidate", arguments: { id: candidate.id } },
  };
}

/** How a reschedule's summary names a missed review it found no place for, after the ones it placed. */
const STILL_MISSED = SUMMARY_WORDS.en.stillMissed.slice(0, SUMMARY_WORDS.en.stillMissed.indexOf(" {"));

/** A `still missed: "X" (why)` part of a reschedule's summary: the review by name (its id is the model's word, never the person's). */
function stillMissedPart(entry: { name: string; why: string }): string {
  return saySummary("en", "stillMissed", { said: `"${entry.name}"`, why: entry.why });
}

/** How a reschedule's card ended, in its step's summary: applied, or declined. */
const RESCHEDULED = { done: SUMMARY_WORDS.en.rescheduled, none: "declinedNewPlace" } as const;

/** A step's summary that reports its writes under `heading` (`reported`). */
function reported(heading: SummaryKey, writes: readonly string[]): string {
  return saySummary("en", "reported", { heading: SUMMARY_WORDS.en[heading], writes: writes.join("; ") });
}

/**
 * Feedback on a missed review's new place that says not to make it up at all ("don't reschedule it", "no need to make
 * it up", "leave it missed", "不用重新安排", "不用补了"), rather than "not there" or a plain "no".
 */
const SAYS_LET_GO =
  /\b(?:don'?t|do not|no need to|never|won'?t|not going to)\s+(?:re-?schedule|re-?place|re-?arrange|make (?:it |them )?up|do (?:it|them))\b|\b(?:leave|keep) (?:it|them) missed\b|\blet (?:it|them) go\b|(?:不要|不用|别|无需|不必)(?:再)?(?:重新|补)(?:安排|排|做)?|不补了/;

/**
 * After the reschedule's card: a new place the user declined with "don't reschedule it" is kept, not forgotten. A
 * missed review stays work to place — the daily check-in proposes it again every morning, and the health judge counts
 * it — until it is placed, done or skipped, so such a review is offered a `skip` card (one write each, on one card):
 * approved, it is let go and never proposed again; rejected, it stays missed, and the next check-in proposes it again,
 * as the card says. A plain "no" leaves it missed, as the reschedule's card says. Undefined while the reschedule's
 * card is unanswered, or none of its places was declined so; else the skip card, or — once it is answered — the end.
 */
function letGoStage(
  rounds: readonly RoundView[],
  end: Finish,
  dating: Dating,
  language: Language,
): Decision | undefined {
  // Found summarised too: the skip card's rounds can push the listing's out of the rounds kept whole.
  const index = rounds.findLastIndex((round) => round.name === "propose_reschedule");
  if (index === -1) return undefined;
  const listing = rounds[index]!.data as RescheduleListing | undefined;
  const later = rounds.slice(index + 1);
  const declined = later
    .filter(
      (round) =>
        round.name === "place" &&
        callResultOf(round) === "rejected" &&
        SAYS_LET_GO.test(writeRejectionFeedback(round.result).toLowerCase()),
    )
    .map((round) => round.arguments.task_id)
    .filter((id): id is string => typeof id === "string");
  if (declined.length === 0) return undefined;
  const skips = later.filter((round) => round.name === "skip");
  if (skips.length === 0)
    return proposeAll(
      say(
        language,
        `You declined the new place. Let ${declined.length === 1 ? "it" : "them"} go? Skipping keeps ${declined.length === 1 ? "it" : "them"} off the schedule, and the daily check-in stops proposing ${declined.length === 1 ? "it" : "them"}; reject this card to keep ${declined.length === 1 ? "it" : "them"} missed (proposed again at the next check-in).`,
        "你拒绝了新的时段。要放下它吗？跳过后它不再排进日程，每日检查也不会再提议补排；拒绝这张卡片则保持错过（下次检查会再次提议）。",
      ),
      declined.map((id) => ({ name: "skip", arguments: { task_id: id } })),
      // The card's "Why": what approving and rejecting it each mean.
      say(
        language,
        "you declined its new place: skipped, it is let go and not proposed again; reject to keep it missed (proposed again at the next check-in)",
        "你拒绝了它的新时段：跳过即放下，不再提议补排；拒绝则保持错过（下次检查会再次提议）",
      ),
    );
  const placed = later.filter((round) => round.name === "place" && callResultOf(round) === "applied");
  const skipped = skips.filter((round) => callResultOf(round) === "applied");
  const note = (Array.isArray(listing?.unplaced) ? listing.unplaced : []).map(stillMissedPart);
  const parts = [
    ...placed.map((round) => appliedWriteText(round, dating)),
    ...skipped.map((round) => saySummary("en", "letGo", { write: appliedWriteText(round, dating) })),
    ...note,
  ];
  if (placed.length > 0) return finish(end, "", reported("rescheduled", parts));
  if (skipped.length > 0)
    return finish(end, "", reported("notRescheduled", [SUMMARY_WORDS.en.declinedNewPlace, ...parts]));
  return finish(
    end,
    say(language, "Understood: it stays missed.", "好的，它保持错过。"),
    notCarriedOut(SUMMARY_WORDS.en[RESCHEDULED.none]),
    "the user declined the change",
  );
}

/**
 * "I missed it, don't reschedule it": the reviews the earlier step marked missed are let go — one `skip` card — so the
 * daily check-in does not propose them again; rejected, they stay missed (and are proposed again), as the card says.
 */
export function letGoStep(
  rounds: readonly RoundView[],
  taskIds: readonly string[] | undefined,
  end: Finish,
  dating: Dating,
  language: Language,
): Decision {
  if (taskIds === undefined || taskIds.length === 0) return finish(end, "", SUMMARY_WORDS.en.nothingToLetGo);
  const skips = rounds.filter((round) => round.name === "skip");
  if (skips.length === 0)
    return proposeAll(
      say(language, "Letting it go, as you said.", "按你说的，放下它。"),
      taskIds.map((id) => ({ name: "skip", arguments: { task_id: id } })),
      say(
        language,
        "you said not to make it up: skipped, it is let go and not proposed again; reject to keep it missed (the next check-in proposes it again)",
        "你说不用补排：跳过即放下，不再提议补排；拒绝则保持错过（下次检查会再次提议）",
      ),
    );
  const skipped = skips.filter((round) => callResultOf(round) === "applied");
  if (skipped.length > 0)
    return finish(
      end,
      "",
      reported(
        "notRescheduled",
        skipped.map((round) => saySummary("en", "letGo", { write: appliedWriteText(round, dating) })),
      ),
    );
  return finish(
    end,
    say(language, "Understood: it stays missed.", "好的，它保持错过。"),
    notCarriedOut(SUMMARY_WORDS.en.keptMissed),
    "the user declined the change",
  );
}

/** How a reschedule's summary names a missed review the user let go (skipped) instead of making it up. */
const LET_GO = SUMMARY_WORDS.en.letGo.slice(0, SUMMARY_WORDS.en.letGo.indexOf(" {"));

/**
 * The first line of the answer to a missed review's plan, from how its reschedule step ended (`rescheduleStep`'s
 * summaries): the missed reviews have new places, or it stays missed; undefined when the plan has no such step.
 */
export function rescheduledHeading(steps: readonly { summary: string }[], language: Language): string | undefined {
  const declined = notCarriedOut(SUMMARY_WORDS.en[RESCHEDULED.none]).summary;
  const ended = steps.find(
    (step) => /^(?:not )?rescheduled: /.test(step.summary) || step.summary === declined,
  )?.summary;
  if (ended === undefined) return undefined;
  const parts = ended.split("; ");
  if (!ended.startsWith(`${RESCHEDULED.done}: `))
    return ended.includes(`${LET_GO} `)
      ? say(
          language,
          "Marked missed, and let go at your word: it is not proposed again (below).",
          "已记为错过，并按你的意思放下：之后不会再提议补排（见下）。",
        )
      : say(language, "Marked missed; it has no new place (below).", "已记为错过，但没有补排到新的时段（见下）。");
  const placed = parts.filter(
    (part, index) => index === 0 || (!part.startsWith(STILL_MISSED) && !part.startsWith(LET_GO)),
  ).length;
  return placed > 1
    ? say(language, `The ${placed} missed reviews have new places.`, `${placed} 个错过的复习已补排到新的时段。`)
    : say(language, "The missed review has a new place.", "错过的复习已补排到新的时段。");
}

/** Reschedule the missed reviews: list their best places, choose them (one card), and say how it ended. */
export function rescheduleStep(
  rounds: readonly RoundView[],
  taskIds: readonly string[] | undefined,
  end: Finish,
  dating: Dating,
  language: Language,
): Decision {
  // The earlier step marked nothing missed (its card was declined, or the tool refused): nothing to propose again.
  if (taskIds === undefined)
    return finish(end, "", reported("nothingToReschedule", [SUMMARY_WORDS.en.noneMarkedMissed]));
  const letGo = letGoStage(rounds, end, dating, language);
  if (letGo) return letGo;
  const stage = listingStage<RescheduleListing>(rounds, end, dating, language, {
    tool: "propose_reschedule",
    speak: say(language, "Looking for the best place to make it up.", "正在寻找补做的最佳时段。"),
    arguments: taskIds.length > 0 ? { task_ids: [...taskIds] } : {},
    reason: "a missed review is proposed again at the candidates' best place",
    ...RESCHEDULED,
    // The missed reviews no place fits any more are said in the answer too, never left out of it.
    endingNote: (listed) => (listed?.unplaced ?? []).map(stillMissedPart),
  });
  if ("decision" in stage) return stage.decision;
  const { listing, round: listedRound } = stage;
  const candidate = listing?.candidates[0];
  const left = (listing?.unplaced ?? []).map(stillMissedPart);
  // Nothing missed (the daily check-in asks every day): nothing to make up, and nothing wrong.
  if (!candidate && listing?.empty === NOTHING_MISSED)
    return finish(
      end,
      say(language, "No review is missed: nothing to make up.", "没有错过的复习，无需补排。"),
      reported("nothingToReschedule", [SUMMARY_WORDS.en.nothingMissed]),
    );
  if (!candidate) {
    const why = listing?.empty ?? failureOf(listedRound);
    // Said from the listing's data: each review no place fits, by name, with why, in the user's language.
    const reasons = (listing?.unplaced ?? []).map((entry) =>
      say(
        language,
        `"${entry.name}" stays missed: ${entry.why}.`,
        `“${entry.name}”保持错过：${missedReasonIn(entry.why, "zh")}。`,
      ),
    );
    const found =
      listing?.empty === NO_PLACE_FITS
        ? say(
            language,
            `I found no place to make up the missed ${reasons.length === 1 ? "review" : "reviews"}.`,
            "没有找到可以补做错过复习的时段。",
          )
        : say(
            language,
            `I found no place to make it up: ${why}.`,
            `没有找到可以补做的时段：${rescheduleEmptyText(why, "zh")}。`,
          );
    return finish(end, [found, ...reasons].join("\n"), reported("notRescheduled", [why, ...left]), "no place fits");
  }
  // The missed reviews no place fits any more are named beside the card, not left unsaid.
  const stays = (listing?.unplaced ?? []).map((entry) =>
    say(
      language,
      `"${entry.name}" stays missed: ${entry.why}.`,
      `“${entry.name}”保持错过：${missedReasonIn(entry.why, "zh")}。`,
    ),
  );
  return {
    speak: [
      say(
        language,
        `Proposing it again at the best free place (${candidate.summary}). Reject the card to leave it missed.`,
        `建议把它补排到最合适的空闲时段（${placesInChinese(candidate.summary, candidate.writes.length)}）。拒绝即保持错过状态。`,
      ),
      ...stays,
    ].join("\n"),
    action: "confirm",
    reason: say(
      language,
      "a missed review is proposed again at the candidates' best place",
      "错过的复习按候选方案中最好的时段重新提出",
    ),
    tool_call: { name: "choose_candidate", arguments: { id: candidate.id } },
  };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A reschedule's places as its card names them (`Place "X" on Tue 12 Mar, 16:00–17:40`, the candidate's summary) in
 * Chinese (`安排 "X" 到 3月12日周二 16:00–17:40`); anything else said as the count of places the card lists.
 */
function placesInChinese(summary: string, count: number): string {
  const places = summary
    .split("; ")
    .map((call) =>
      call.replace(
        /^Place ("(?:[^"\\]|\\.)*") on (Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) ([A-Z][a-z]{2}), (\d\d:\d\d–\d\d:\d\d)$/,
        (_, name: string, weekday: string, date: string, month: string, time: string) =>
          `安排 ${name} 到 ${MONTHS.indexOf(month) + 1}月${date}日${weekdayName(dayOfWeekNumber(weekday), "zh")} ${time}`,
      ),
    );
  return places.some((place) => place.startsWith("Place ")) ? `共 ${count} 处，卡片上逐项列出` : places.join("；");
}

/** Health issues in Chinese, by kind. */
const ISSUE_ZH: Readonly<Record<HealthIssueKind, string>> = {
  heavy_day: "某天复习过重",
  uneven: "每天的负担不均",
  back_to_back: "复习连在一起没有间隔",
  no_buffer: "复习前后没有缓冲",
  fragmented: "零碎的单节空闲",
  off_profile: "不符合你的偏好",
  off_strategy: "不符合课程的安排方式",
  unplaced: "还有待安排的复习",
  cannot_fit: "有复习放不下",
};

/**
 * "How healthy is my week?": the health judge's score, and what costs points — its days by date, as the cards name
 * them (the English messages carry `day 3 (Wed 13 Mar 2024)`, which the answer reads as "Wed 13 Mar").
 */
export function healthStep(rounds: readonly RoundView[], facts: WeekFacts, end: Finish, language: Language): Decision {
  const round = rounds.findLast((candidate) => candidate.name === "analyze_health" && !candidate.summarised);
  if (!round)
    return read(
      say(language, "Judging the week.", "正在评估这一周。"),
      "analyze_health",
      {},
      "the question is about the week's health",
    );
  const report = round.data as HealthReport | undefined;
  if (!report || typeof report.score !== "number" || !Array.isArray(report.issues))
    return finish(end, "", notCarriedOut(failureOf(round)));
  const top = report.issues.slice(0, 3);
  const pending = report.feasibility.pending;
  // Missed reviews without a place are still to place, as the pending ones are (a report stored before: none).
  const missed = report.feasibility.missed ?? 0;
  if (language === "zh") {
    const costs =
      top.length === 0
        ? "没有扣分项。"
        : `扣分最多的：${top
            .map((issue) => {
              const days = [...new Set(issue.days)].map((day) => dayName(day, facts, "zh"));
              return `${ISSUE_ZH[issue.kind]}（${days.length > 0 ? `${days.join("、")}，` : ""}-${issue.penalty}）`;
            })
            .join("；")}。`;
    const open =
      pending + missed > 0
        ? `还有 ${pending + missed} 个复习待安排${missed > 0 ? `（其中 ${missed} 个是错过后还没补上的）` : ""}，其中 ${report.feasibility.placeable} 个放得下。`
        : "";
    return finish(end, "", `这一周的健康分是 ${report.score}/100。${costs}${open}${letGo(report, language)}`);
  }
  const costs =
    top.length === 0
      ? "Nothing costs points."
      : `What costs the most: ${top.map((issue) => `${issue.message} (-${issue.penalty})`).join("; ")}.`;
  const open =
    pending + missed > 0
      ? ` ${[pending > 0 ? `${pending} review(s) are still pending` : "", missed > 0 ? `${missed} missed review(s) are not made up` : ""].filter(Boolean).join(" and ")} (${report.feasibility.placeable} of them fit).`
      : "";
  return finish(end, "", `Your week's health score is ${report.score}/100. ${costs}${open}${letGo(report, language)}`);
}

/**
 * What the student can do about the reviews whose deadline has passed (`feasibility.passed`): nothing places them any
 * more, and each costs points every day until it is let go — so the answer says how ("skip …"), and that it then
 * stops costing; "" when none has passed.
 */
function letGo(report: HealthReport, language: Language): string {
  const passed = report.feasibility.passed ?? [];
  if (passed.length === 0) return "";
  return passed
    .map(({ name }) =>
      say(
        language,
        ` "${name}" is past its deadline: nothing can make it up now, and it costs points until you let it go — say "skip ${name}" and it stops.`,
        `“${name}”已过截止时间，无法再补做；在你放下它之前会一直扣分——说“跳过${name}”即可不再扣分。`,
      ),
    )
    .join("");
}

/** The status words of a task item, in the user's language. */
function statusWords(task: ListedTask, facts: WeekFacts, language: Language): string {
  const range = task.slots[0];
  if (task.kind === "placed" && range)
    return say(
      language,
      `placed on ${placeWords(range, facts, language)}`,
      `已安排在${placeWords(range, facts, language)}`,
    );
  const zh = TASK_STATUS_ZH[task.kind as TaskStatus] ?? task.kind;
  return say(language, task.kind === "pending" ? "not placed yet" : task.kind, zh);
}

/**
 * "What's left before the midterm?": the tasks due before the event named, and how each stands. Before a day
 * (`when`: "how many reviews are left before Friday?"): the reviews still to do before it — each placed on an earlier
 * day that has not started, and each not placed (pending, missed) that is due before it.
 */
export function leftBeforeStep(
  rounds: readonly RoundView[],
  event: string,
  facts: WeekFacts,
  end: Finish,
  language: Language,
  when?: Where,
): Decision {
  const round = rounds.findLast((candidate) => candidate.name === "list_tasks" && !candidate.summarised);
  const tasks = (round?.data as { tasks?: ListedTask[] } | undefined)?.tasks;
  if (!round || !tasks)
    return read(
      say(language, `Looking up what is due before "${event}".`, `正在查找“${event}”之前要完成的任务。`),
      "list_tasks",
      { limit: 100 },
      "the question is about the tasks due before an event",
    );
  if (when) return leftBeforeDay(tasks, event, when, facts, end, language);
  const found = matchTask(
    event,
    tasks.filter((task) => task.kind === "event"),
  );
  if (!found)
    return finish(
      end,
      "",
      say(language, `I found no event matching "${event}" in your week.`, `你的这一周里没有与“${event}”匹配的活动。`),
    );
  const exam = found.task;
  const examDay = exam.slots[0]?.day;
  const due = tasks.filter((task) => {
    if (task.kind === "event" || !task.dueBefore) return false;
    if ("eventId" in task.dueBefore) return task.dueBefore.eventId === exam.id;
    return examDay !== undefined && task.dueBefore.day <= examDay;
  });
  const at = exam.slots[0]
    ? say(
        language,
        ` (${placeWords(exam.slots[0], facts, language)})`,
        `（${placeWords(exam.slots[0], facts, language)}）`,
      )
    : "";
  if (due.length === 0)
    return finish(
      end,
      "",
      say(language, `Nothing is due before ${exam.name}${at}.`, `${exam.name}${at}之前没有要完成的任务。`),
    );
  const open = due.filter((task) => task.kind !== "done" && task.kind !== "skipped");
  // Named as a person names them; an id only where two share a name.
  const shared = new Set(
    due.filter((task, at) => due.findIndex((other) => other.name === task.name) !== at).map((task) => task.name),
  );
  const lines = due.map(
    (task) => `- ${task.name}${shared.has(task.name) ? ` (${task.id})` : ""}: ${statusWords(task, facts, language)}`,
  );
  const head = say(
    language,
    `Before ${exam.name}${at}: ${open.length} of ${due.length} task(s) left to do.`,
    `${exam.name}${at}之前：${due.length} 个任务中还有 ${open.length} 个要做。`,
  );
  return finish(end, "", [head, ...lines].join("\n"));
}

/** The reviews still to do before the day `when` names, from the listing `tasks`. */
function leftBeforeDay(
  tasks: readonly ListedTask[],
  said: string,
  when: Where,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const day = firstDayOf(when, facts);
  if (day === undefined)
    return finish(
      end,
      "",
      say(language, `"${said}" names no day of your schedule.`, `“${said}”不是你日程里的某一天。`),
    );
  const eventDay = (id: string) => tasks.find((task) => task.id === id)?.slots[0]?.day;
  const dueBy = (task: ListedTask) =>
    !!task.dueBefore &&
    ("day" in task.dueBefore ? task.dueBefore.day <= day : (eventDay(task.dueBefore.eventId) ?? Infinity) < day);
  const left = tasks.filter((task) => {
    const range = task.slots[0];
    if (task.kind === "placed" && range) return range.day < day && !hasStarted(range, facts);
    return (task.kind === "pending" || task.kind === "missed") && dueBy(task);
  });
  const named = dayName(day, facts, language);
  // The reviews without a place that need not be done by then: said apart, so none is forgotten.
  const later = tasks.filter((task) => task.kind === "pending" && !dueBy(task)).length;
  const rest =
    later === 0
      ? []
      : [
          say(
            language,
            `${later} more review(s) are not placed yet and not due before ${named}.`,
            `另有 ${later} 个复习还没安排，也不必在${named}之前完成。`,
          ),
        ];
  if (left.length === 0)
    return finish(
      end,
      "",
      [say(language, `Nothing is left to do before ${named}.`, `${named}之前没有还要做的复习了。`), ...rest].join(" "),
    );
  const lines = left.map((task) => `- ${task.name}: ${statusWords(task, facts, language)}`);
  const head = say(
    language,
    `Before ${named}: ${left.length} review(s) left to do.`,
    `${named}之前：还有 ${left.length} 个复习要做。`,
  );
  return finish(end, "", [head, ...lines, ...rest].join("\n"));
}
