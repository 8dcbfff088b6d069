/**
 * A request read whole (`parseScheduleRequest`): a message's sentences with its politeness taken out, which sentence is
 * the request and what the others say of where, the missed reviews to make up first, more moves said in sentences of
 * their own; and a follow-up ("and Tuesday?") read against the request before.
 */
import { trimEdges } from "../../../contracts/edge-trim.js";
import { type DaySelection, movesOf, READ_REQUEST_KINDS, type ScheduleRequest, type Where } from "./request-kinds.js";
import { MAX_READ_SENTENCES, normalizeText, unique } from "./words.js";
import { readWeekNamed, WEEK_NAMED } from "./day-words.js";
import { isAnywhere, isEmptySelection, readWhere } from "./where.js";
import { readTaskWords } from "./task-words.js";
import { DONT_RESCHEDULE, STOPPING_CLAUSE } from "./marks.js";
import { PRONOUN } from "./move-target.js";
import { MOVE_VERB_EN, MOVE_ZH, readMoves } from "./moves.js";
import { parseSentence } from "./sentences.js";
import { readBadAmount } from "./amounts.js";
import { readShiftInto } from "./shift-all.js";

const GREETING =
  /^(?:(?:(?:hi|hello|hey)(?: there)?|thanks|thank you|good (?:morning|evening|afternoon))\b|你好|您好|嗨|谢谢|多谢|早上好|晚上好)[\s!.,。！~]*$/i;

/** A request to make the arranged week better without adding anything ("optimise my week", "优化一下我的日程"). */
export const OPTIMIZE_REQUEST =
  /\b(?:optimi[sz]e|re-?arrange|improve|rebalance|tidy up|refine)\b.*\b(?:week|schedule|timetable|reviews?)\b|优化.*(?:日程|安排|一周|复习)/i;

/**
 * Words of politeness and filler that never name anything: "please", "thanks", "cheers", "though", "谢谢", "麻烦了".
 * They go before a request is read, so "…, thanks!" never becomes a task named "thanks".
 */
const POLITENESS =
  /\b(?:please|pls|plz|kindly|thanks(?: a lot| so much)?|thank you(?: (?:so|very) much)?|thx|ty|cheers|though|if you can|if possible|if you could|when you can)\b|谢谢(?:你|您)?|多谢|谢啦|感谢|麻烦(?:你|您)?了?|辛苦(?:你|您)?了|拜托(?:你|您)?了?|请(?=[\u3400-\u9fff])/g;

/** Strips politeness and filler ("please", "thanks", "谢谢") and the punctuation they leave behind. */
export function withoutPoliteness(text: string): string {
  const spaced = text
    .replace(POLITENESS, " ")
    // Spaces first, so a run of commas is matched with at most one space between them: `\s*` before a comma backtracks
    // in time quadratic in a run of spaces with no comma (a message of 请 is one).
    .replace(/\s+/g, " ")
    .replace(/ ?,(?: ?,)+/g, ",")
    .trim();
  return trimEdges(spaced, /[\s,]/);
}

/**
 * Reads a request from a message or a plan step. A new task's or habit's name keeps the case the message wrote it in
 * ("Past papers"); everything else is read lowercased.
 */
export function parseScheduleRequest(text: string): ScheduleRequest {
  const known = readings.get(text);
  if (known) return known;
  const request = readShiftInto(text, readRequest) ?? readRunningLate(text);
  const read = deepFrozen(
    request.kind === "add_task" || request.kind === "add_habit" || request.kind === "add_long_task"
      ? { ...request, name: asWritten(request.name, text) }
      : request,
  );
  if (text.length > KEPT_TEXT_LENGTH) return read;
  const oldest = readings.keys().next();
  if (readings.size >= KEPT_READINGS && !oldest.done) readings.delete(oldest.value);
  readings.set(text, read);
  return read;
}

/**
 * Running late: "I'm running late, push everything back an hour", "running behind, push my reviews back 30 minutes",
 * "我迟到了，把复习都往后推一小时" — a shift of time with no day said is today's reviews (before, every review of the week
 * moved an hour).
 */
const RUNNING_LATE =
  /\b(?:running|i'm|i am|we're|we are)\s+(?:(?:a\s+)?(?:bit|little|lot)\s+|so\s+|really\s+)?(?:late|behind)\b|\bbehind schedule\b|迟到|来不及|晚点了|耽误了/i;

/** A clause first that says only that: "I'm running late, …", "我迟到了，…" (read without it). */
const RUNNING_LATE_CLAUSE = new RegExp(
  String.raw`^[^,，。.!?！？]{0,40}?(?:${RUNNING_LATE.source})[^,，。.!?！？]{0,20}[,，。.!?！？]+\s*`,
);

function readRunningLate(text: string): ScheduleRequest {
  const read = readRequest(text);
  if (!RUNNING_LATE.test(text)) return read;
  const today = (request: ScheduleRequest) =>
    request.kind === "shift_all" &&
    request.minutes !== undefined &&
    request.weekday === undefined &&
    request.fromToday === undefined &&
    !request.more &&
    !request.to
      ? { ...request, fromToday: 0 }
      : undefined;
  // (Any other reading stays as it was: "我来不及做作文了，把它挪到明天" keeps the essay the clause names.)
  const clause = RUNNING_LATE_CLAUSE.exec(text);
  return today(read) ?? (clause ? today(readRequest(text.slice(clause[0].length))) : undefined) ?? read;
}

/**
 * The last messages read, each with its reading: a turn reads its message several times (the plan, each step, the
 * reply), and a reading depends on the text alone. Frozen, so no reader can change another's.
 */
const readings = new Map<string, ScheduleRequest>();
const KEPT_READINGS = 256;
/** The longest text kept (a pasted page is read as it comes): the cache holds at most 256 × 2,000 characters. */
const KEPT_TEXT_LENGTH = 2_000;

function deepFrozen<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFrozen(inner);
  }
  return value;
}

/** `name`, read from `text` lowercased, as `text` writes it; as read when `text` does not hold it letter for letter. */
export function asWritten(name: string, text: string): string {
  const plain = text.replace(/[“”„「」『』]/g, '"').replace(/\s+/g, " ");
  const at = plain.toLowerCase().indexOf(name);
  const written = at === -1 ? name : plain.slice(at, at + name.length);
  return written.toLowerCase() === name ? written : name;
}

/** `parseScheduleRequest`, every name lowercased. */
function readRequest(text: string): ScheduleRequest {
  const normalized = normalizeText(text);
  if (normalized === "") return { kind: "unknown" };
  // ("I'm done for the day, move the rest to tomorrow": stopping said first is no request of its own.)
  const stopped = STOPPING_CLAUSE.exec(normalized);
  if (stopped) return readRequest(normalized.slice(stopped[0].length));
  // "Reschedule my missed reviews, then arrange …" (the daily check-in): the arrangement, its missed reviews first.
  const makeUp = MAKE_UP_MISSED.exec(normalized);
  if (makeUp) {
    const after = normalized.slice(makeUp.index + makeUp[0].length);
    // Alone, the missed reviews are what is asked (it read as moving a task named "missed reviews" before).
    if (/^[\s,.!?。！？，]*$/.test(after)) return { kind: "reschedule" };
    const rest = readRequest(after);
    if (rest.kind === "arrange") return { ...rest, makeUp: true };
  }
  if (GREETING.test(normalized)) return { kind: "greeting" };
  const polite = withoutPoliteness(normalized);
  if (polite === "" || /^[\s,.!?]*$/.test(polite)) return { kind: "greeting" };
  // "-4 hours", "0分钟", "at 25:00": an amount no schedule can hold is said back, never read as another one.
  const bad = readBadAmount(polite);
  if (bad) return { kind: "unknown", why: "bad_amount", ...bad };
  // Sentences: the first that is a request is the request; the others may say where things go ("I prefer mornings.",
  // "Not on Friday though.") and never name tasks.
  // (A correction said as a sentence of its own — "to Thursday. No, Friday", "to Friday... actually Saturday" — is of
  // the sentence before it: read with it, it takes back that sentence's day.)
  const joined = polite.replace(CORRECTION_SENTENCE, ", ");
  const sentences = joined
    // (A Chinese full stop is one too: "把作文挪到周五。单词表挪到周六。" — it has no space after it.)
    .split(/[?!]+|\.(?=\s|$|[\u4e00-\u9fff])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "")
    .slice(0, MAX_READ_SENTENCES);
  if (sentences.length <= 1) return parseSentence(trimEdges(joined, /[.!?]/, "end").trim());
  const readings = sentences.map(parseSentence);
  const main = readings.findIndex((reading) => !["unknown", "greeting", "help"].includes(reading.kind));
  if (main === -1) return readings.find((reading) => reading.kind !== "unknown") ?? { kind: "unknown" };
  const found = readings[main]!;
  // "I missed Tuesday's review. Don't reschedule it.": the second sentence is about the first.
  if (found.kind === "mark" && sentences.some((sentence, index) => index !== main && DONT_RESCHEDULE.test(sentence)))
    return { ...found, reschedule: false };
  if (!("where" in found)) return found;
  // "Move the essay to Friday. Move the matrix review to Monday.": a move in each sentence (its days are its own).
  const moves = sentences.map((sentence, index) =>
    found.kind === "move" && index > main ? movesSaidAfter(sentence) : undefined,
  );
  const also = moves.flatMap((move) => (move?.kind === "move" && movesTo(move) ? movesOf(move) : []));
  // ("Move the essay to Friday. Clear Saturday.": another request of its own, whose days are no place of this one —
  // both asked for apart.)
  const other = readings.findIndex(
    (reading, index) =>
      index !== main &&
      !(moves[index]?.kind === "move" && movesTo(moves[index])) &&
      !["unknown", "greeting", "help"].includes(reading.kind) &&
      !READ_REQUEST_KINDS.has(reading.kind),
  );
  if (other !== -1 && (found.kind === "move" || found.kind === "arrange"))
    return { kind: "unknown", why: "two_requests", parts: [sentences[main]!, sentences[other]!] };
  const extra = sentences
    .filter((_, index) => index !== main && !(moves[index]?.kind === "move" && movesTo(moves[index])))
    .map((sentence) => readWhere(sentence))
    .reduce(mergeWheres, found.where);
  return found.kind === "move" && also.length > 0
    ? { ...found, where: extra, also: [...(found.also ?? []), ...also] }
    : ({ ...found, where: extra } as ScheduleRequest);
}

/**
 * The moves a sentence after a move says ("Move the matrix review to Monday.", "And the essay to Friday."), its verb
 * left out only before "to" ("I prefer mornings." moves nothing).
 */
function movesSaidAfter(sentence: string): ScheduleRequest | undefined {
  const piece = sentence.replace(/^(?:and|then|also)\s+/, "");
  if (MOVE_VERB_EN.test(piece) || MOVE_ZH.test(piece)) return readMoves(piece);
  return /\s(?:to|onto|into|until|till)\s/.test(piece) ? readMoves(`move ${piece}`) : undefined;
}

/** True for a move of a named task to a place or by a shift. */
function movesTo(reading: ScheduleRequest): boolean {
  return reading.kind === "move" && !PRONOUN.test(reading.task) && (!!reading.shift || !isAnywhere(reading.where));
}

/** A full stop or an ellipsis before a correction ("… Thursday. No, Friday", "… Friday... actually Saturday"). */
const CORRECTION_SENTENCE =
  // (From the first mark of a run only: tried at every mark of a run of 300 000 "。", it took minutes.)
  /(?<![.…])[.…]+\s*(?=(?:no|nope|no wait|oh wait|wait|sorry|actually|i mean|i meant|make that|or rather)\b[,\s])/g;

/** "Reschedule my missed reviews, then …", "补排（我）错过的复习，然后…": a request to make up the missed reviews first. */
const MAKE_UP_MISSED =
  /^(?:reschedule|make up|put back|catch up on|re-?place)\s+(?:(?:all\s+(?:of\s+)?)?(?:my|the)\s+missed\s+(?:reviews?|tasks?|ones)|(?:(?:all\s+(?:of\s+)?)?(?:my|the)\s+)?(?:reviews?|tasks?|ones?)\s+(?:that\s+)?i\s+missed|what(?:ever)?\s+i\s+missed)\s*(?:,\s*)?(?:and\s+)?(?:then\s+)?|^(?:请|帮我)?(?:补排|重新安排|补做)(?:一下)?(?:我|我的)?(?:错过|没做|漏掉)(?:了)?的复习[，,]?\s*(?:然后|再)?/;

/** Two readings of where, together: both sets of days, the later slots. */
function mergeWheres(base: Where, extra: Where): Where {
  const join = (first: DaySelection, second: DaySelection): DaySelection => {
    const dates = [...(first.dates ?? []), ...(second.dates ?? [])];
    return {
      weekdays: unique([...first.weekdays, ...second.weekdays]),
      days: unique([...first.days, ...second.days]),
      ...(dates.length > 0 ? { dates } : {}),
    };
  };
  // Whatever another sentence says of the slots holds too ("Schedule the essay. After 3pm.", "… Not in the morning.":
  // before, a start limit and a part ruled out were dropped).
  const slots = { ...base.slots, ...extra.slots };
  const before = extra.before ?? base.before;
  return { only: join(base.only, extra.only), not: join(base.not, extra.not), slots, ...(before ? { before } : {}) };
}

/**
 * A follow-up that only names another day or time ("what about next week?", "and Friday?", "how about tomorrow
 * evening?", "下周呢", "那明天呢"): group 1 or 2 holds what it names.
 */
const FOLLOW_UP =
  /^(?:(?:and|but|ok|okay|so|then)[\s,]+)?(?:(?:what|how)\s+about|what of|and)\s+(.+?)[\s?!.]*$|^(?:那|那么|还有)?(.+?)呢[\s?!.]*$/;

/**
 * A question asked again of another day or time (a follow-up, FOLLOW_UP) as the question before it, `previous`: "when
 * am I free on Monday?" then "what about Tuesday?" is "when am I free on Tuesday?"; "what's on today?" then "下周呢"
 * asks about next week. Only a question about days (what's on, when am I free) is followed up, and only by words that
 * name days or times and nothing else; undefined otherwise.
 */
export function readFollowUp(message: string, previous: ScheduleRequest): ScheduleRequest | undefined {
  if (previous.kind !== "day" && previous.kind !== "free") return undefined;
  const named = FOLLOW_UP.exec(withoutPoliteness(normalizeText(message)));
  const words = (named?.[1] ?? named?.[2] ?? "").trim();
  if (words === "" || words.length > 60) return undefined;
  const week = readWeekNamed(words);
  const said = readWhere(words.replace(WEEK_NAMED, " "));
  // Nothing but days and times: "the essay?" is no follow-up of a question about days.
  const rest = readTaskWords(words.replace(WEEK_NAMED, " ")).replace(/\b(?:for|about|of|then|instead)\b|[\s,.?!]/g, "");
  if (rest !== "" || (isAnywhere(said) && !week)) return undefined;
  const only = week && isEmptySelection(said.only) ? { ...said.only, dates: [week] } : said.only;
  const dayNamed = !isEmptySelection(only);
  const slotsNamed = said.slots.part !== undefined || said.slots.from !== undefined;
  return {
    ...previous,
    where: {
      ...previous.where,
      only: dayNamed ? only : previous.where.only,
      // A day alone keeps the part of the day asked before ("Monday afternoon?" then "and Tuesday?").
      slots: slotsNamed ? said.slots : previous.where.slots,
    },
  };
}

/**
 * True when `text` is a request of its own, one a plan can carry out ("add a task …", "move the essay to Friday"), not
 * an answer naming what a question asked about ("the flashcards", "Friday") nor one whose task is only "it" ("move it
 * to Friday": the task is the one asked about). A habit is no plannable request (it is declined, never planned).
 */
export function isWholeRequest(text: string): boolean {
  const own = parseScheduleRequest(text);
  return isPlannable(own) && !namesOnlyAPronoun(own);
}

/** True for requests a plan can carry out (a habit is not built: it is declined, never planned as something else). */
export function isPlannable(request: ScheduleRequest): boolean {
  return !["help", "greeting", "unknown", "habit"].includes(request.kind);
}

/** True for a request whose task is only "it" / "that" ("move it to Friday"). */
function namesOnlyAPronoun(request: ScheduleRequest): boolean {
  const pronoun = (phrase: string) => /^(?:it|that|this|them|that one|this one|它|这个|那个)$/.test(phrase.trim());
  if (request.kind === "move" || request.kind === "unplace" || request.kind === "explain") return pronoun(request.task);
  if (request.kind === "swap") return pronoun(request.first) || pronoun(request.second);
  return false;
}
