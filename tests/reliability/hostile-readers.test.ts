/**
 * Every reader of a person's text, over runs written to make a regular expression backtrack. A message (up to 100 000
 * characters), an answer to a question or a card, and a model's reply are read on the event loop that every thread of
 * the server shares, so a reader whose time grows with the square of a run holds every user: `\s*` before a word at
 * the end (13 s for a reply of 100 000 spaces), `[.!。！]+$` on a run of marks not at the end (6 s), a run of spaces
 * where commas were looked for (6 s for 100 000 characters of 请).
 *
 * Each reader gets each run at 200 000 characters, with a word after it and without: a linear reader takes
 * milliseconds; a quadratic one, tens of seconds. The limit on each test is the symptom's bound, not a measure of speed
 * (`bench/hostile-text.ts` prints the figures). The runs are the marks, spaces and words the readers look for: found
 * by a sweep of every word in the readers' patterns (2,000 of them, five separators) at 20 000 characters.
 */
import { describe, expect, test } from "vitest";
import { renderReasoning } from "../../cli/render.js";
import { attachedCalendars, isCalendarRequest, withoutCalendarText } from "../../contracts/attached-calendar.js";
import { parseNowLine } from "../../contracts/clock.js";
import { extractJsonObject } from "../../contracts/json-extraction.js";
import { oneLine } from "../../contracts/message-text.js";
import { normalizeStepText, readPlanStepsText } from "../../contracts/plan.js";
import { planRejectionFeedback } from "../../contracts/rejections.js";
import { stopNoteIn } from "../../contracts/report-words.js";
import { escapedText, unstorable } from "../../contracts/storable-text.js";
import { isRetryPhrase } from "../../kernel/commands.js";
import { isLiveData } from "../../memory/task-state.js";
import { plainText, withParagraphBreaks } from "../../nodes/deliver/index.js";
import { matchTokens } from "../../offline/schedule/task-matching.js";
import { parseTodoRequest } from "../../offline/todo/request-parsing.js";
import { isShortConfirmation, isShortDismissal, isWithdrawal } from "../../review/human-response.js";
import { daysOffIn, parseFeedback } from "../../tools/schedule/feedback.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { readablePlaces, readableScheduleText } from "../../tools/schedule/readable.js";
import {
  normalizeText,
  parseScheduleRequest,
  readFollowUp,
  readWhere,
  taskPhrase,
  withoutPoliteness,
} from "../../tools/schedule/request-parsing.js";

const LENGTH = 200_000;

/**
 * The readers, each of one text. (Not the terminal chat's column count, `displayWidth`: it runs in the user's own
 * process, on a cell's text, and segments text that is not plain ASCII into graphemes at microseconds a character.)
 */
const READERS: Record<string, (text: string) => unknown> = {
  parseScheduleRequest,
  normalizeText,
  withoutPoliteness,
  readWhere,
  taskPhrase,
  readFollowUp: (text) => readFollowUp(text, { kind: "move", task: "essay", where: readWhere("") }),
  readSchedulePreferences,
  parseFeedback,
  daysOffIn,
  readablePlaces: (text) => readablePlaces(text, "en"),
  readableScheduleText: (text) => readableScheduleText(text, "zh"),
  matchTokens,
  parseTodoRequest,
  plainText,
  withParagraphBreaks,
  isLiveData,
  isShortConfirmation,
  isWithdrawal,
  isShortDismissal,
  isRetryPhrase,
  parseNowLine,
  extractJsonObject,
  oneLine: (text) => oneLine(text, 200),
  planRejectionFeedback,
  stopNoteIn: (text) => stopNoteIn(text, "en"),
  unstorable,
  escapedText,
  isCalendarRequest,
  attachedCalendars,
  withoutCalendarText,
  readPlanStepsText,
  normalizeStepText,
  renderReasoning,
};

/** What is repeated: spaces and line ends, closing marks, politeness, words of when and of standing preferences. */
const RUNS = [
  " ",
  "\n",
  "\t",
  ".",
  ". ",
  "。",
  "!",
  "！",
  ",",
  "，",
  "-",
  "*",
  '"',
  "{",
  "请",
  "和",
  "please ",
  "thanks ",
  "谢谢 ",
  "ty ",
  "never on monday. ",
  "从不\n",
  "点以后\n",
  "at 10 ",
  "下周",
  "1. ",
  // A move asked as a question whose task and place never end (half a second at 100 000 characters before).
  "can the go to ",
  // Days said alone where a task goes, and clauses with no 把 before a move's verb.
  "all of today and ",
  "今天，",
  "for the rest of ",
  "今天剩下",
  // An amount before what is moved, and reviews counted.
  "push back a day ",
  "push back ",
  "one more review ",
  "再一个复习",
  // Hours of the night and midnight said without a number, as preferences and their lifts read them.
  "午夜以后",
  "a.m. ",
  "after 1 in the morning ",
  "过了1点",
  "过了",
  // Times of minutes nothing goes after, and the small hours said as a time.
  "no studying after 9:3",
  "9点半以后",
  "凌晨2点",
  "3 at night ",
  "in the morning ",
  // Reasons said beside days kept free.
  "keep friday free, I have ",
  "因为，",
  // A remark of being tired before "it".
  "i'm too tired ",
  "tired tonight ",
  "我今晚太累了",
  // 排 for 安排.
  "不要在排",
  "把排到",
  // An exam named by its day.
  "before my exam ",
  "周五考试",
  // Nothing at a time, and clauses that rule a part of a day out.
  "don't schedule anything ",
  "什么都不要安排",
  "today, not tonight, ",
  "今晚不行，",
  // The time it is now, said with a day.
  "this time ",
  "这个时候",
  // The reviews of a part of a day.
  "tomorrow morning's ",
  "明天上午的",
  "free up my ",
  "my review tonight ",
  "can i do the ",
  "把提前一",
  // A bare hour where a move goes.
  "move it to 3 ",
  "to 3 ",
  // The reviews from a time on.
  "push everything after 3pm ",
  "三点以后的",
  // Running late.
  "i'm running late ",
  "迟到，",
  // A window of the clock kept free.
  "keep 2pm to 4pm ",
  "两点到四点",
  // Reviews into a part of a day, and a busy window before a move.
  "1 day later, into the ",
  "往后推1天，挪到",
  "i'm busy from 2 to 4 ",
  "to the evening ",
  // A weekday right after the reviews, and hours alone kept free.
  "my reviews friday ",
  "keep 2 to 4 ",
  // A bare hour after "for".
  "reschedule the essay for 3 ",
  // A review named by its time with no noun.
  "whatever is at ",
  "the 2pm one ",
  // Every review of a day done.
  "i did all of today's reviews ",
  "的复习都",
  "i didn't do anything ",
  "what have i got left ",
  "i'm busy, move anything ",
  "how am i doing so far ",
  "what do i have left ",
  // Stopping said first, the rest, the weekend.
  "i'm done for the day, ",
  "the rest ",
  "weekend reviews ",
];

describe("every reader of a person's text reads a hostile run in one pass", () => {
  test.each(Object.keys(READERS))(
    "%s",
    (name) => {
      const read = READERS[name]!;
      let texts = 0;
      for (const run of RUNS) {
        const body = run.repeat(Math.ceil(LENGTH / run.length)).slice(0, LENGTH);
        for (const text of [body, `${body}x`, `move the essay to friday ${body}x`]) {
          read(text);
          texts += 1;
        }
      }
      expect(texts).toBe(RUNS.length * 3);
    },
    30_000,
  );
});
