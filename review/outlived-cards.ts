/**
 * A write card answered after its time (docs/design.md#outlived-cards): left open across days or weeks, its writes may
 * name places the clock has since passed, or a week that is gone — by the clock, or because another change (the daily
 * check-in, another thread) rolled the window on while the card waited. Such a card is not applied — not the writes
 * the clock or the card's frame now refuses, which would only fail one by one (and count as the step's tool errors),
 * nor the rest, which were chosen beside them — and the task goes back to planning from now, on a card that says what
 * changed. This file finds such a card; the confirm node moves the week on when it is gone, and {@link outlivedAnswer}
 * is the answer.
 *
 * Which writes the clock made stale is the tools' own judgement, not a second copy of their rules: each approved
 * write, in the card's order, is tried on the stored state twice — with the run's clock, and with none (as its card
 * was tried, before its places passed). One the tools take without the clock and refuse with it was made stale by the
 * clock alone. One refused without the clock too (another thread took its slot, its card's frame moved) is not the
 * clock's: it is left to the write itself, as before.
 */
import { AIMessage } from "@langchain/core/messages";
import { newId } from "../kernel/ids.js";
import type { Language } from "../contracts/language.js";
import { say } from "../contracts/language.js";
import { callFrame } from "../kernel/call-records.js";
import type { ProposedWrite, TempoState, TempoUpdate, WriteCall } from "../kernel/state.js";
import { toolResultMessage } from "../kernel/tool-results.js";
import { reviseClosingCard } from "../kernel/transitions.js";
import type { Preference } from "../contracts/preferences.js";
import { findTool, type ToolDomain } from "../tools/domain.js";
import { checkToolArguments, stateForRun } from "../tools/runner.js";
import type { AppliedWrite } from "../contracts/applied-write.js";
import { writeRejectionText } from "../contracts/rejections.js";

/** An approved write of the card the clock made stale, and why, in people's words. */
export interface PassedWrite {
  call: ProposedWrite;
  why?: string;
}

/** Who answers the card, and on what clock. */
export interface OutlivedContext {
  userId: string;
  now?: Date;
  preferences?: readonly Preference[];
  lastChange?: readonly AppliedWrite[];
}

/**
 * The approved writes of a card (`approved`, in its order, an edit as edited) that the clock alone now refuses, each
 * with its refusal in `language`; [] when none does, when the run has no clock, or when a write is refused for another
 * reason first (that one is the write's own to tell) — an edited one (by id in `edited`) refused by the clock too: the
 * edit chose that time when the card was answered.
 */
export async function writesPassedByClock(
  domain: ToolDomain,
  proposal: AIMessage,
  approved: readonly ProposedWrite[],
  edited: ReadonlySet<string>,
  who: OutlivedContext,
  language: Language,
): Promise<PassedWrite[]> {
  if (who.now === undefined || !domain.withClock || approved.length === 0) return [];
  const stored = await domain.load(who.userId);
  const load = () => Promise.resolve(stored);
  const base = { userId: who.userId, preferences: who.preferences ?? [], lastChange: who.lastChange };
  let clocked = await stateForRun(domain, { ...base, now: who.now }, load);
  let unclocked = await stateForRun(domain, base, load);
  const passed: PassedWrite[] = [];
  for (const call of approved) {
    const tool = findTool(domain, call.name);
    if (!tool || tool.kind !== "write" || tool.runAsync) return passed;
    const checked = checkToolArguments(tool, call.arguments);
    if (!checked.ok) return passed;
    const frame = callFrame(proposal, call.id);
    const named = { name: call.name, arguments: checked.arguments };
    if (frame !== undefined && domain.cardFrame?.stale(unclocked, named, frame) !== undefined) return passed;
    const without = tool.run(unclocked, checked.arguments);
    if (!without.ok) return passed;
    const withClock = tool.run(clocked, checked.arguments);
    // An edit into the past is the answer's own choice, not the card outliving its time: the write refuses it.
    if (!withClock.ok && edited.has(call.id)) return passed;
    if (!withClock.ok) {
      // Said from the refusal's data when the domain tells it (the clock's: the review by name, its place by date).
      const said = withClock.data === undefined ? undefined : domain.refusal?.(stored, withClock.data, language);
      passed.push(said === undefined ? { call } : { call, why: said });
    } else if (withClock.state !== undefined) clocked = withClock.state;
    if (without.state !== undefined) unclocked = without.state;
  }
  return passed;
}

/**
 * Why the week the approved writes of a card (`approved`, of `proposal`) were made on is no longer the `stored` one —
 * another change rolled it on while the card waited (`CardFrame.moved`) — as the domain says it; undefined when it
 * still is, or when the domain keeps no frames.
 */
export function weekMovedUnder(
  domain: ToolDomain,
  proposal: AIMessage,
  approved: readonly ProposedWrite[],
  stored: unknown,
): string | undefined {
  for (const call of approved) {
    const frame = callFrame(proposal, call.id);
    const moved = frame === undefined ? undefined : domain.cardFrame?.moved?.(stored, call.name, frame);
    if (moved !== undefined) return moved;
  }
  return undefined;
}

/** What the person is told of a card answered after its time: which places passed, or that its week did or moved. */
export function outlivedNote(outlived: Omit<OutlivedCard, "approved">, language: Language): string {
  const { passed, weekGone } = outlived;
  if (outlived.moved !== undefined && !weekGone)
    return say(
      language,
      "The schedule has moved on to another week since this card was made, so nothing on it was applied.",
      "这张卡片做出之后，日程已经移到了另一周，所以卡片上的修改一项都没有执行。",
    );
  if (weekGone || passed.length === 0)
    return say(
      language,
      "The week this card was made on has passed, so nothing on it was applied.",
      "这张卡片是为已经过去的那一周做的，所以卡片上的修改一项都没有执行。",
    );
  const lines = passed.map(({ call, why }) => `- ${call.summary || call.name}${why ? ` — ${why}` : ""}`).join("\n");
  return say(
    language,
    `The places on this card have passed, so nothing on it was applied:\n${lines}`,
    `这张卡片上的时间已经过去了，所以卡片上的修改一项都没有执行：\n${lines}`,
  );
}

/** The note as the card that proposes again opens with it: with the new places it brings. */
export function outlivedCardNote(note: string, language: Language): string {
  return `${note}\n${say(language, "Here are new ones from now.", "下面是从现在起的新安排。")}`;
}

/**
 * What the chat says of the writes of a card answered after its time, as of any write that did not apply ("Could
 * not apply: <change> — <why>"): each whose place passed, or each approved one when its week is gone or moved.
 */
function notAppliedLines({ approved, passed, weekGone, moved }: OutlivedCard, language: Language): string {
  const gone = weekGone ? say(language, "the week it was made on has passed", "它所在的那一周已经过去了") : moved;
  const said = gone !== undefined ? approved.map((call) => ({ call, why: gone })) : passed;
  return said
    .map(
      ({ call, why }) =>
        `${say(language, "Could not apply: ", "未能执行：")}${call.summary || call.name} — ${why ?? say(language, "its time has passed", "它的时间已经过去了")}`,
    )
    .join("\n\n");
}

/** What the model reads for a write of a card answered after its time (the outcome `held`: it did not run). */
const OUTLIVED_RESULT =
  "Not run: this card was answered after its time (a place on it had passed by the clock, or its week had, or the week had moved on since it was made), so none of its changes was applied; nothing was changed, and the plan is made again from now.";

/** A card answered after its time, as found: what it left undone, and whether its week is gone. */
export interface OutlivedCard {
  /** The approved writes (as edited), named as the card (or the edit) named them. */
  approved: readonly ProposedWrite[];
  passed: readonly PassedWrite[];
  /** The clock makes the window's roll due: the week the card was made on has passed, and the window moves on now. */
  weekGone: boolean;
  /**
   * Why the window is no longer the one the card was made on (another change rolled it on while the card waited), in
   * the user's language, as the domain says it (`weekMovedUnder`); absent when it still is.
   */
  moved?: string;
}

/**
 * The answer to a card answered after its time: no write of it applies — each approved or undecided write is answered
 * as held (it did not run; neither applied nor a tool error), each rejected one as rejected — the chat says which did
 * not apply and why, and the task goes back to planning, the note said on the next card (`TempoState.outlivedCard`)
 * and, should the task end before one, in its answer.
 */
export function outlivedAnswer(
  state: TempoState,
  writes: readonly ProposedWrite[],
  declined: ReadonlyMap<string, string>,
  outlived: OutlivedCard,
  language: Language,
): { update: TempoUpdate; said?: AIMessage } {
  const closed = writes.map((write: WriteCall) =>
    declined.has(write.id)
      ? toolResultMessage(write, writeRejectionText(declined.get(write.id)!), "declined")
      : toolResultMessage(write, OUTLIVED_RESULT, "held"),
  );
  const lines = notAppliedLines(outlived, language);
  const said = lines === "" ? undefined : new AIMessage({ id: newId("ai"), content: lines });
  const update: TempoUpdate = {
    ...reviseClosingCard(state, said ? [...closed, said] : closed),
    liveState: null,
    stepSetbacks: { ...state.stepSetbacks, toolErrors: 0 },
    outlivedCard: outlivedNote(outlived, language),
    // The week moved on under the card: what the clock did at the start of this request (the roll onto the card's own
    // week, said on that card) is old news, never said again on the card that proposes from now (a week the clock
    // made gone has confirm roll it and set the note afresh).
    ...(outlived.moved !== undefined && !outlived.weekGone ? { movedOn: null } : {}),
  };
  return { update, said };
}
