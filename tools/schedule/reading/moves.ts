/**
 * Moves and swaps of placed tasks: "move the essay to Friday", "move it", several moves in one sentence ("the essay
 * to Friday and the matrix review to Monday"), "swap the essay and the matrix review", "把作文移到周五".
 */
import { type MoveRequest, type ScheduleRequest, type Where, withOtherDay, withoutDayward } from "./request-kinds.js";
import {
  DAY_OR_SHORT_EN,
  DAY_SAID_EN,
  DAY_WORD_ZH,
  isAnywhere,
  isEmptySelection,
  readPartOfDay,
  readWhere,
  withWeekNamed,
} from "./where.js";
import { namesEverything, onlyWhen, readTaskWords, taskPhrase } from "./task-words.js";
import { splitNamingDay } from "./day-names.js";
import { MOVE_TO_ZH, MOVE_VERB } from "./shift-all.js";
import { MOVE_BACK, readPutBack } from "./placing.js";
import {
  namesReviewsOfDay,
  PRONOUN,
  rulesTimeOut,
  splitTarget,
  taskNamedBefore,
  withDaysOut,
  withDaysRuledOutBefore,
} from "./move-target.js";
import { readShift } from "./shifts.js";
import { MODAL_ZH, NUMBER_WORDS } from "./words.js";
import { readClearDay, readMark, readUnplace } from "./marks.js";

export function readSwap(body: string): ScheduleRequest | undefined {
  const english =
    /\b(?:swap|switch|exchange|trade)\s+(?:the\s+)?(?:(?:places?|times?|slots?|spots?|days?)\s+of\s+)?(.+?)\s+(?:and|with|&)\s+(.+)$/.exec(
      body,
    );
  const chinese =
    /(?:交换|对调|互换|调换)(?:一下)?(.+?)(?:和|与|跟)(.+?)(?:的(?:位置|时间))?$/.exec(body) ??
    (swapVerbAfterPair(body) ? /(?:把|将)?(.+?)(?:和|与|跟)(.+?)(?:交换|对调|互换|调换)/.exec(body) : null);
  const match = english ?? chinese;
  if (!match) return undefined;
  const [first, second] = withDayAloneFilled(taskPhrase(match[1] ?? ""), taskPhrase(match[2] ?? ""));
  return first && second ? { kind: "swap", first, second } : undefined;
}

/** A day said alone as a task ("thursday's", "周四", "周四的"): the day's words, with no task's words after them. */
const DAY_ALONE = new RegExp(String.raw`^(?:${DAY_SAID_EN}'s|(?:${DAY_WORD_ZH}|今天|明天|后天)的?)$`);

/**
 * A pair of tasks where one is a day said alone, the task's words after the other ("swap Thursday's and Saturday's
 * reviews", "swap Thursday's review with Saturday's", "把周四和周六的复习交换"): the day alone takes them too
 * ("thursday's review", "周四的复习"), as it was meant.
 */
function withDayAloneFilled(first: string, second: string): [string, string] {
  const tail = (phrase: string) => splitNamingDay(phrase)?.rest.replace(/^reviews$/, "review") ?? "";
  const fill = (alone: string, other: string) => {
    const rest = tail(other);
    if (!DAY_ALONE.test(alone) || rest === "") return alone;
    return /[\u4e00-\u9fff]/.test(alone) ? `${alone.replace(/的$/, "")}的${rest}` : `${alone} ${rest}`;
  };
  return [fill(first, second), fill(second, first)];
}

/**
 * True when "A 和 B 交换" can match `body`: a 和 / 与 / 跟 after its first character, and a swap verb at least two
 * characters after it. Asked first because the pattern, on a sentence of 和 with no swap verb after them, tries every
 * start, every 和 and every end: cubic in the sentence (500 characters took 40 ms, 6 000 half a minute). When this
 * holds, the pattern matches from the sentence's start in one pass (its body is one line: `normalizeText`).
 */
function swapVerbAfterPair(body: string): boolean {
  const verb = Math.max(...["交换", "对调", "互换", "调换"].map((word) => body.lastIndexOf(word)));
  const pair = ["和", "与", "跟"].map((word) => body.indexOf(word, 1)).filter((at) => at !== -1);
  return pair.length > 0 && Math.min(...pair) + 2 <= verb;
}

/** "put off X", "put X off", "put it off till Friday": group 1 holds what is put off when the particle follows it. */
export const PUT_OFF =
  /^(?:(?:please|can you|could you|would you|just|let's|i want to|i'd like to)\s+)*put\s+(?:off\b|(.+?)\s+off\b)/;
const MOVE_TO = new RegExp(String.raw`\b${MOVE_VERB}\s+(.+?)(?:\s+(?:to|onto|into|until|till)\s+(.+))?$`);

/**
 * A bare hour first where a move goes ("… to 11", "… to 3 on Friday", "… to seven tomorrow"): an hour of 1–12 with no
 * minutes, marker, unit, second number or half of the day after it ("3 at night" is read as said), said as "at 11" is
 * and marked so (`SlotWindow.halfUnsaid`: the planner settles its half of the day). Not after a number ("2 to 3
 * reviews", "from 2 to 4": a range, read as it was). Before, the hour was not read: the move was refused as an unread
 * number, or, with a day said, the hour was dropped and the task went to the day's first free slot.
 */
const HOUR_WORD = String.raw`(?:[1-9]|1[0-2]|${Object.keys(NUMBER_WORDS).join("|")})`;
const BARE_HOUR_FIRST = new RegExp(
  String.raw`^${HOUR_WORD}\b(?![:./\d]|\s*(?:[-–&]|or\b|and\b|[ap]\.?m\b|o'?clock\b|ish\b|(?:slots?|days?|sections?|periods?|hours?|minutes?|mins?|of|tasks?|reviews?|times?|weeks?|a|an|per|each|every|more|less|fewer)\b)|\s+(?:at\s+night|tonight|in\s+the\s+(?:morning|afternoon|evening)|this\s+(?:morning|afternoon|evening))\b)`,
);
/** A subject that ends with a number or a time ("2", "from 3pm"): "… to N" after it is a range's end. */
// ("the 2pm one to 7": "one" after a time or "the" names a review, no number.)
const NUMBER_LAST = new RegExp(
  String.raw`(?:\d|\b(?<!(?:\bthe|\bthis|\bthat|[ap]m|o'?clock)\s+)${HOUR_WORD})\s*(?:[ap]\.?m\.?)?$`,
);

function withBareHourAt(subject: string, target: string | undefined): string | undefined {
  if (target === undefined || NUMBER_LAST.test(subject)) return target;
  const said = target.trimStart();
  return BARE_HOUR_FIRST.test(said) ? `at ${said}` : target;
}

/** What is somewhere, said of no task: "anything (in the way)", "whatever is (in the way)", "whatever's there". */
const WHATEVER_IS_THERE = /^(?:anything|whatever(?:'s|\s+is)?|what(?:'s|\s+is))(?:\s+there)?$/;

/** "X for 2", "X for 3 on Friday": the task and the hour where it goes; else the words as they are, with no target. */
function splitForHour(subject: string): [string, string | undefined] {
  const said = FOR_HOUR.exec(subject);
  const after = said?.[3]?.trim() ?? "";
  if (!said || NUMBER_LAST.test(said[1]!) || !BARE_HOUR_FIRST.test(said[2]!) || (after !== "" && !onlyWhen(after)))
    return [subject, undefined];
  return [said[1]!, said[2]!];
}
const FOR_HOUR = new RegExp(String.raw`^(.+)\s+for\s+(${HOUR_WORD}\b(\s.*)?)$`);

/** `where` with its time marked as an hour said bare (`SlotWindow.halfUnsaid`) when `bare` and a time was read. */
function withHalfUnsaid(where: Where, bare: boolean): Where {
  return bare && where.slots.at !== undefined ? { ...where, slots: { ...where.slots, halfUnsaid: true } } : where;
}

/**
 * A shift said before what it moves ("push back a day today", "move forward an hour tonight's reviews"), or with
 * nothing after it ("push back a day").
 */
const AMOUNT_FIRST =
  /\b(push|move|shift|bump|set)\s+(back|forward|ahead)\s+((?:by\s+)?(?:a|one|an|half an|(?:\d{1,2}|two|three|four|five)(?:\.5)?)\s+(?:days?|hours?|minutes?|mins?))(?:\s+(?!(?:to|until|till|onto|into|on|later|earlier)\b)(\S.*))?$/;

export function readMove(words: string): ScheduleRequest | undefined {
  const { said, dayward } = withoutDayward(words);
  const read = readMoveTo(said);
  return dayward && read?.kind === "move" && read.otherDay && !read.also ? { ...read, dayward } : read;
}

function readMoveTo(said: string): ScheduleRequest | undefined {
  // "move the matrix review back to where it was", "bring it back to its old slot": put back (before, a move to any
  // other free place).
  const movedBack = MOVE_BACK.exec(said);
  if (movedBack) return readPutBack(`put ${movedBack[1]} back where it was`);
  // "put the matrix review off till Friday" reads as "put off the matrix review till Friday".
  const body = said
    .replace(PUT_OFF, (whole, object?: string) =>
      object === undefined ? whole : whole.replace(/put\s+.+?\s+off\b/, `put off ${object}`),
    )
    // "push back a day today" reads as "push today back a day" (before, a task named "day" was sought).
    .replace(
      AMOUNT_FIRST,
      (_whole, verb: string, way: string, amount: string, what?: string) =>
        // ("push back a day" alone moves "it": the review now or next today.)
        `${verb} ${what ?? "it"} ${way} ${amount}`,
    );
  const shifted = readShift(body);
  if (shifted) return shifted;
  // "postpone the matrix review to Friday", "delay it until Thursday": a move to the day named.
  const english = MOVE_TO.exec(body);
  if (english) {
    // "push it back to Friday", "bring X forward to Monday": the particle is no part of the name.
    const words = (english[1] ?? "").replace(/^(?:back|forward)\s+/, "").replace(/\s+(?:back|forward)$/, "");
    // ("reschedule my 10am review for 2", "… for 3 on Friday": a bare hour after "for" is where it goes, as after "to".)
    const [subject, told] = english[2] === undefined ? splitForHour(words) : [words, english[2]];
    const target = withBareHourAt(subject, told);
    const [said, where, leaves] = splitTarget(subject, target);
    const before = body.slice(0, english.index);
    // ("I have a meeting from 2pm to 4pm, move anything in the way": what is there, after a clause that rules a time
    // out, is every review of it — before, a task named "anything" was sought.)
    const task = PRONOUN.test(said)
      ? (taskNamedBefore(before) ?? said)
      : WHATEVER_IS_THERE.test(said) && rulesTimeOut(before)
        ? "reviews"
        : said;
    return task
      ? withOtherDay(
          // "push the essay to next week": that week, which the schedule may not hold yet (it was dropped).
          {
            kind: "move",
            task,
            where: withHalfUnsaid(
              withWeekNamed(withDaysRuledOutBefore(readWhere(where), before, task), where),
              target !== told,
            ),
            ...(leaves ? { leaves } : {}),
          },
          where,
        )
      : undefined;
  }
  // (A clause about the task said first, with no 把: as if the task were named after it.)
  const zh = withSubjectClauseZh(body);
  const out = MOVE_OUT_ZH.exec(zh);
  if (out) {
    // "把周四上午的所有复习挪出周四上午", "把复习都挪走": off the days said, or off the day the task is of.
    const task = taskPhrase(out[1] ?? "");
    const from = out[2] ?? "";
    const ruledOut = readWhere(`不要${from}`).not;
    if (!task || (from.trim() !== "" && isEmptySelection(ruledOut))) return undefined;
    const part = namesReviewsOfDay(task) ? readPartOfDay(from) : undefined;
    const before = zh.slice(0, Math.max(0, zh.search(/把|将/)));
    // "把周四的所有复习挪出周四14:00-16:00": a window of the clock left, both its ends said (as the plan writes it).
    const window = namesReviewsOfDay(task) && !part ? readWhere(from).slots : {};
    const left =
      window.startsFrom !== undefined && window.endsBy !== undefined
        ? { startsFrom: window.startsFrom, endsBy: window.endsBy }
        : undefined;
    const read = readWhere(out[3] ?? "");
    // "把作文挪走，不要上午": what the clause after it rules out too.
    const where = withDaysRuledOutBefore(
      withDaysOut(left ? { ...read, slots: { ...read.slots, ...left } } : read, ruledOut, part),
      before,
      task,
    );
    if (from.trim() === "" && isAnywhere(where) && /周|星期|礼拜|今天|明天|后天/.test(task))
      return { kind: "move", task, where, otherDay: true };
    // ("把作文挪出今天": the days it leaves.)
    return from.trim() !== "" && isEmptySelection(where.only)
      ? { kind: "move", task, where, leaves: true }
      : { kind: "move", task, where };
  }
  const chinese = MOVE_ZH.exec(zh);
  if (chinese) {
    // "把作文从周六挪到别的天": the day it is moved from is no part of its name, and no day to move it to.
    // ("把作文从下午三点挪到六点": the time it is moved from, too.)
    const from = new RegExp(
      String.raw`^(.+?)从((?:${DAY_WORD_ZH}|今天|明天|后天|上午|下午|晚上|早上|中午|\d{1,2}\s*[:：点]|[零一二两三四五六七八九十]{1,3}\s*点).*)$`,
    ).exec(chinese[1] ?? "");
    // ("作文能挪到周五吗": with no 把, how the move is wanted is no part of the name.)
    // ("把作文往后推到周五": the way it goes, before a verb that names the day, is no part of the name either.)
    const said = (from ? from[1]! : (chinese[1] ?? "")).replace(/(?<=.)(?:往后|向后|往前|向前)$/, "");
    const task = taskPhrase(/把|将/.test(zh) ? said : said.replace(TOPIC_MODAL_ZH, ""));
    // "周六我有事，把作文挪到别的时间": what the clause before 把 rules out.
    const before = zh.slice(0, Math.max(0, zh.search(/把|将/)));
    const where = withWeekNamed(withDaysRuledOutBefore(readWhere(chinese[2] ?? ""), before, task), chinese[2] ?? "");
    return task
      ? withOtherDay(
          {
            kind: "move",
            task,
            // Moved away from that day to no place named ("别的天", "别的时间"): another day than it.
            where:
              from && isAnywhere(readWhere(chinese[2] ?? "")) ? withDaysRuledOutBefore(where, `不要${from[2]}`) : where,
          },
          chinese[2] ?? "",
        )
      : undefined;
  }
  return undefined;
}

/**
 * "作文周六不行，帮我挪到别的时间", "作文周六不行，挪一下": a clause about the task first, then the verb with no 把 —
 * read as "作文周六不行，把作文挪到别的时间" (the clause rules its days out; the task was "作文周六不行，帮我"). The task is
 * the clause's words before its first day, part of the day or word of trouble.
 */
function withSubjectClauseZh(body: string): string {
  if (/把|将/.test(body)) return body;
  // "我今天不舒服，复习都改到明天", "周六我有事，作文挪到周五": the last clause names the task before its verb, with no
  // 把 — read as "…，把复习都改到明天" (before, the task was "我今天不舒服,复习都").
  const topic = new RegExp(
    String.raw`^(.+)[，,；;]\s*(?:所以|那就|那么|帮我|请|麻烦|就|再)*([^，,；;]+?)((?:${MOVE_TO_ZH}).*)$`,
  ).exec(body);
  if (topic && !/^(?:我|你|他|她|我们|它)|^(?:所以|那就|那么|帮我|请|麻烦|就|再)+$/.test(topic[2]!))
    return `${topic[1]}，把${topic[2]}${topic[3]}`;
  const match = /^([^，,；;]+)[，,；;]\s*((?:帮我|请|麻烦|就|再)*)((?:挪|移|调|换|改).*)$/.exec(body);
  if (!match) return body;
  const subject = new RegExp(
    String.raw`^(.+?)(?:${DAY_WORD_ZH}|今天|明天|后天|上午|下午|晚上|早上|不行|有事|没空|不方便|不能|不可以|和|跟|与|冲突)`,
  ).exec(match[1]!)?.[1];
  if (!subject || /^(?:我|你|他|她|我们)/.test(subject)) return body;
  return `${match[1]}，把${subject}${match[3]}`;
}

/** "把X挪出周四" (group 2 the days it leaves), "把X挪走" / "挪开" (no group 2: off where it is). */
const MOVE_OUT_ZH =
  /^(?:.*?(?:把|将))(.+?)(?:(?:挪出|移出|调出|搬出)([^，,；;]+?)|(?:挪走|移走|挪开|移开|调走|调开|挪一下|挪一挪|换个时间|换一下时间|改个时间|换个时段|调一下时间|挪个时间))(?:吧|去)?(?:[，,；;]\s*(.+?))?[。.!！]?$/;
const TOPIC_MODAL_ZH = new RegExp(String.raw`(?<=.)(?:${MODAL_ZH})$`);
export const MOVE_ZH = new RegExp(String.raw`^(?:.*?(?:把|将))?(.+?)(?:${MOVE_TO_ZH})(.+)$`);
/** A verb that starts a move said after another ("…, and push the essay to Friday"). */
export const MOVE_VERB_EN = new RegExp(String.raw`^(?:${MOVE_VERB}|put)\b`);
/** A move's verb and only days after it ("push all of Thursday"): the start of a list of days whose reviews move. */
const VERB_THEN_DAYS = new RegExp(
  String.raw`^\s*${MOVE_VERB}\s+(?:(?:all|each|every one)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?${DAY_SAID_EN}(?:\s*,\s*${DAY_SAID_EN})*\s*$`,
);
/**
 * What joins one move to the next: ", and", "and then", ";", "&", "，", "，然后", "然后", "并且", "并把", "另外",
 * "和", "以及" (a 和 inside a task's name or a list of days joins no two moves: what is before it is no whole move).
 */
const MOVE_JOINS =
  /\s*[,;，；]\s*(?:and\s+)?(?:then\s+)?(?:然后|再|并且|还有|另外|同时)?\s*|\s+(?:and|then)\s+(?:then\s+)?|\s*&\s*|然后|并且|并(?=把|将)|另外|以及|和|跟/g;

/**
 * A move, or several said together, each of its own task to its own place ("move the matrix review to Thursday and the
 * essay to Friday", "push the essay back a day, then the limits review to Monday", "把矩阵复习挪到周四，作文挪到周五"):
 * the words are cut at a join where what is before reads as a whole move (a task and a place or a shift) and what
 * follows names a task ("… to Thursday and Friday" stays one move's target), and the last piece must be a whole move
 * too; otherwise the words are one move. One pass: each join is read once, so a long list stays cheap.
 */
export function readMoves(words: string): ScheduleRequest | undefined {
  // "move my reviews off Thursday and onto Friday": one move from a day to a day, not a second move of a task "onto".
  const said = words.replace(OFF_AND_ONTO, "$1 ");
  const joins = [...said.matchAll(MOVE_JOINS)];
  const moves: MoveRequest[] = [];
  let start = 0;
  for (const [at, join] of joins.entries()) {
    const next = said.slice(join.index + join[0].length, joins[at + 1]?.index ?? said.length);
    // ("… and skip the vocab list", "…，另外把周六清空": another request after a whole move — both asked for apart.)
    const parts = moveThenOther(said, join);
    if (parts) return { kind: "unknown", why: "two_requests", parts };
    if (readTaskWords(next).trim() === "") continue;
    // ("… between 7 and 9": the two ends of a range of the clock, no second move of a task "9".)
    if (/\bbetween\s+\S+$/.test(said.slice(start, join.index)) || CLOCK_ALONE.test(next.trim())) continue;
    // ('move "X" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, …', as the terminal shows a place: the clock time after
    // the comma is the time it leaves, no second move of a task "10:00–11:40".)
    if (CLOCK_THEN_TARGET.test(next.trim())) continue;
    // ("push all of Thursday and Friday's reviews back": days listed before the reviews they name are no move.)
    if (VERB_THEN_DAYS.test(said.slice(start, join.index))) continue;
    const move = wholeMove(said.slice(start, join.index), moves.length === 0);
    if (!move) continue;
    moves.push(move);
    start = join.index + join[0].length;
  }
  const rest = said.slice(start);
  const last = moves.length > 0 ? (wholeMove(rest, false) ?? sameMoveOf(rest, moves.at(-1)!)) : undefined;
  if (!last) return readMove(said);
  const [first, ...also] = [...moves, last];
  return { ...first!, also };
}

/**
 * A move and a mark, a clear, a take-off or a swap in one sentence, either first ("move the essay to Friday and mark
 * the matrix review done", "mark the matrix review done and move the essay to Friday", "把矩阵复习标记完成，然后把论文移到周五"):
 * two requests, each asked for apart. Before, the mark's reader took the whole sentence for the name of a task to mark
 * ("move the essay to and mark the matrix review"), or the move was read and the other request dropped unsaid.
 */
export function readMoveAndOther(said: string): ScheduleRequest | undefined {
  const joins = [...said.matchAll(MOVE_JOINS)];
  // (Only the first move's verb after a join is read as a move: read after every "and move" of a sentence of them, the
  // move's reader took a second.)
  const moveAfter = joins.find((join) => startsMove(said.slice(join.index! + join[0].length).trim()));
  for (const join of joins) {
    const parts = moveThenOther(said, join) ?? (join === moveAfter ? otherThenMove(said, join) : undefined);
    if (parts) return { kind: "unknown", why: "two_requests", parts };
  }
  return undefined;
}

/** Words that start with a move's verb: "move …", "push …", "把…挪到…" (the Chinese verb anywhere after 把). */
const startsMove = (words: string) =>
  MOVE_VERB_EN.test(words) || (/^(?:把|将)/.test(words) && MOVE_VERB_ZH.test(words));
const MOVE_VERB_ZH = new RegExp(MOVE_TO_ZH);

/** A whole move before `join` and the verb of another request after it ("… and skip the vocab list"): the two. */
function moveThenOther(said: string, join: RegExpMatchArray): [string, string] | undefined {
  const [first, other] = [said.slice(0, join.index), said.slice(join.index! + join[0].length).trim()];
  return (OTHER_REQUEST_VERB.test(other) || OTHER_REQUEST_ZH.test(other)) && wholeMove(first, true)
    ? [first.trim(), other]
    : undefined;
}

/** Another request before `join` and a move of a task named after it, its verb first ("skip the vocab list and move …"). */
function otherThenMove(said: string, join: RegExpMatchArray): [string, string] | undefined {
  const [first, then] = [said.slice(0, join.index).trim(), said.slice(join.index! + join[0].length).trim()];
  const move = readMove(then);
  // ("我错过了矩阵复习，把它改到周五": a move of the task just named is the mark's own place, no second request.)
  if (move?.kind !== "move" || PRONOUN.test(move.task) || PRONOUN_ZH.test(move.task)) return undefined;
  // ("skip everything and move my reviews to tomorrow": every review is the other request's own, said twice.)
  if (readTaskWords(move.task).trim() === "" || namesEverything(move.task)) return undefined;
  const other = readMark(first) ?? readClearDay(first) ?? readUnplace(first) ?? readSwap(first);
  return other ? [first, then] : undefined;
}

/** A task said as "it" in Chinese: 它, 这个, 那个. */
const PRONOUN_ZH = /^(?:它|它们|这个|那个|这些|那些)$/;

/**
 * A day left and a day to go to, joined by "and": "off thursday and onto friday", "off thu and onto fri", "from today
 * and put them on friday".
 */
const OFF_AND_ONTO = new RegExp(
  String.raw`\b((?:off(?:\s+of)?|from|away from)\s+${DAY_OR_SHORT_EN}),?\s+and\s+(?:(?:put|move|place)\s+(?:it|them)\s+)?(?=(?:onto|on to|into|to|on)\s)`,
  "g",
);

/**
 * A verb of another request after a move ("… and skip the vocab list", "… and clear Saturday", "… and mark the essay
 * done"): what follows it is no task moved as the move before it is (before, a task "skip the vocab list" was sought).
 */
const OTHER_REQUEST_VERB =
  /^(?:skip|clear|cancel|remove|delete|drop|unplace|mark|swap|switch|schedule|arrange|add|finish|complete|undo|free up|empty|block)\b/;

/** Another request said after a move in Chinese ("另外把周六清空", "跳过单词表", "把作文标记为完成"). */
const OTHER_REQUEST_ZH =
  /^(?:另外|还有|再)?(?:请|帮我)?(?:(?:把|将)[^，,。；;]*?)?(?:清空|清掉|跳过|取消|删除|删掉|撤下|撤掉|标记|做完|完成|交换|对调|撤销|空出)/;

/** A clock time or a range of them alone ("9", "9pm", "10:30", "2-4"): no task of its own. */
/** A clock time or range followed by where it goes: the end of a place a task leaves ("10:00–11:40 to thu …"). */
const CLOCK_THEN_TARGET =
  /^\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?:\s*(?:-|–|—|~)\s*\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?)?\s+(?:to|onto|into)\s/;
const CLOCK_ALONE = /^\d{1,2}(?::\d{2})?(?:\s*(?:-|–|~|to)\s*\d{1,2}(?::\d{2})?)?\s*(?:[ap]\.?m\.?)?$/;

/** Words after a move that only say so ("… and thanks", "… too, please"): no task of their own. */
const NO_TASK_AFTER = /^(?:thanks?|thank you|please|pls|ok|okay|too|also|as well|then|now|asap|today)\b/;

/**
 * A last piece that names a task and no place ("move the matrix review to Thursday and the essay"): that task moved
 * as the move before it is — to its place, or by its shift — rather than dropped unsaid; undefined for any other.
 */
function sameMoveOf(piece: string, before: MoveRequest): MoveRequest | undefined {
  // (Words of when are the move's own: "…, at 14:30" is no task.)
  if (
    NO_TASK_AFTER.test(piece.trim()) ||
    MOVE_VERB_EN.test(piece) ||
    OTHER_REQUEST_VERB.test(piece.trim()) ||
    /[\u4e00-\u9fff]/.test(piece)
  )
    return undefined;
  if (!isAnywhere(readWhere(piece)) || /^(?:at|on|in|by|from|before|after|around)\b/.test(piece.trim()))
    return undefined;
  const move = readMove(`move ${piece.replace(/(?:\s+(?:too|as well|also|please))+\s*$/, "")}`);
  if (move?.kind !== "move" || move.shift || !isAnywhere(move.where) || PRONOUN.test(move.task)) return undefined;
  if (readTaskWords(move.task).trim() === "") return undefined;
  return { kind: "move", task: move.task, where: before.where, ...(before.shift ? { shift: before.shift } : {}) };
}

/** A task put somewhere with 放 or 安排, said after a move ("单词表放周六", "把单词表安排在周六"): the task and where. */
const PLACED_AFTER_ZH = /^(?:把|将)?([\u4e00-\u9fff"“][^，,。；;]*?)(?:放|安排|排)(?:到|在)?([^，,。；;]+)$/;

/**
 * One piece of several moves as a move of a task to a place or by a shift; undefined when it is not one. A piece
 * after the first may leave its verb out ("… and the essay to Friday"), so it needs "to" or a shift ("… and make it
 * the morning" is no move of a task "make it").
 */
/** A piece that starts with a day said alone ("friday back a day"), not a day's reviews ("friday's review …"). */
const DAY_ALONE_FIRST = new RegExp(String.raw`^\s*${DAY_SAID_EN}\b(?!'s|\s+(?:reviews?|sessions?)\b)`);

function wholeMove(piece: string, first: boolean): MoveRequest | undefined {
  // ("把作文挪到周五，单词表放周六": a later piece may put its task with 放 or 安排, as a move of it.)
  const placed = first ? null : PLACED_AFTER_ZH.exec(piece.trim());
  if (placed) return wholeMove(`把${placed[1]}挪到${placed[2]}`, false);
  const chinese = MOVE_ZH.test(piece) && /[\u4e00-\u9fff]/.test(piece);
  const said = first || chinese || MOVE_VERB_EN.test(piece) ? piece : `move ${piece}`;
  const move = readMove(said);
  if (move?.kind !== "move" || (!move.shift && isAnywhere(move.where))) return undefined;
  if (first) return move;
  if (PRONOUN.test(move.task) || readTaskWords(move.task).trim() === "") return undefined;
  // ("push my reviews on thursday and friday back a day": a day alone after a join, with no verb of its own, is one more
  // day of the list, not a move of that day's reviews — "…, and push friday back a day" is.)
  if (!MOVE_VERB_EN.test(piece.trim()) && DAY_ALONE_FIRST.test(piece)) return undefined;
  return move.shift || chinese || /\s(?:to|onto|into|until|till)\s/.test(said) ? move : undefined;
}
