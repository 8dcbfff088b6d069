/**
 * The plain words every reader of a request starts from: the text made plain (`normalizeText`: full-width punctuation,
 * curly quotes, emoji and texting spellings), numbers in digits, English words or Chinese numerals, weekday names, the
 * longest sentence read and how many, and the small helpers of names (edit distance, unique values).
 */

/** Numbers said in words, "one" … "twelve": an hour ("at seven" is read as "at 7") or a count ("three times"). */
export const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

export const WEEKDAYS_EN: ReadonlyArray<[RegExp, number]> = [
  [/\bmon(?:day)?s?\b/, 1],
  [/\btue(?:s|sday)?s?\b/, 2],
  [/\bwed(?:nesday)?s?\b/, 3],
  [/\bthu(?:r|rs|rsday)?s?\b/, 4],
  [/\bfri(?:day)?s?\b/, 5],
  [/\bsat(?:urday)?s?\b/, 6],
  // "the sun" is not a day ("my essay about the sun").
  [/\bsundays?\b|(?<!\b(?:the|a)\s+)\bsuns?\b/, 7],
];
export const WEEKDAY_ZH = /(?:周|星期|礼拜)([一二三四五六日天1-7])/g;
export const ZH_WEEKDAY_NUMBER: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7 };
const ZH_DIGITS: Record<string, number> = {
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** A number written in digits or in Chinese numerals up to 99 ("十二", "二十", "零": "零点" is midnight), or NaN. */
export function readNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === "零") return 0;
  const match = /^([一二两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!match || text === "") return Number.NaN;
  const [, tens, ten, ones] = match;
  if (!ten) return tens && !ones ? (ZH_DIGITS[tens] ?? Number.NaN) : Number.NaN;
  return (tens ? (ZH_DIGITS[tens] ?? 0) : 1) * 10 + (ones ? (ZH_DIGITS[ones] ?? 0) : 0);
}

/**
 * The words that make a day the first of a stretch, said after it ("Wednesday or later", "tomorrow at the earliest")
 * or before it ("no earlier than Wednesday", "starting tomorrow"); and the last, said after it ("Thursday at the
 * latest"). One list for the weekdays (`withDaySpans`) and the days counted from today (`readDates`).
 */
export const FROM_ON_AFTER = String.raw`(?:or later|or after|and later|and after|onwards?|at the earliest)`;
export const FROM_ON_BEFORE = String.raw`(?:no earlier than|not earlier than|not before|starting(?:\s+(?:on|from))?|beginning(?:\s+on)?)`;
export const UP_TO_AFTER = String.raw`(?:or earlier|or before|and earlier|at the latest)`;
/** "Sometime", "any day" before a limit of days ("any day after today", "sometime before Friday"): of the limit too. */
export const ANY_DAY = String.raw`(?:sometime|some time|any ?time|any day)`;

/**
 * A Chinese sentence's ending that only suggests or asks ("…更好", "…比较好", "…怎么样", "…行吗", "…吗", "…吧"): no part
 * of a task's name nor of when ("…了吗" asks what is, not for a change).
 */
export const SUGGESTION_END_ZH =
  /(?:(?:会)?(?:更好|比较好|好一点|好些|更合适|比较合适)|怎么样|行不行|好不好|可以吗|行吗|好吗|(?<!了)吗|吧|呢|好了|就好)*[。！!？?]*$/;

/**
 * The longest sentence (or fragment) the reader reads. Its patterns were written for requests people type, and some
 * backtrack in time quadratic or cubic in a sentence that nearly fits them: "not on Monday " and 6 000 "和" (the swap
 * pattern, a separator and no "交换") held the served process's event loop — every thread — for half a minute, read as
 * card feedback whatever the model. A longer sentence names no request, day or slot here (a model reads it whole).
 */
export const MAX_READ_LENGTH = 500;
/**
 * Sentences of a message read for its request, at most: each is read whole, so a pasted text of 30 000 "sentences"
 * ("1. 1. 1. …") took a second on the event loop. A request and what it says of where fit in far fewer.
 */
export const MAX_READ_SENTENCES = 50;

export const NUMBER = String.raw`(\d+|[一二两三四五六七八九十]+)`;
/** A count in words ("three days"). */
export const COUNT_WORD = String.raw`one|two|three|four|five|six|seven|eight|nine|ten`;

/** "the rest of today", "rest of the day", "for the rest of my day"; "the rest of tonight", "… of the evening" (group 1). */
const REST_OF_TODAY =
  /\b(?:for\s+)?(?:the\s+)?rest\s+of\s+(?:today|the\s+day|my\s+day|(tonight|the\s+evening|this\s+evening|my\s+evening))\b/g;

/** Lowercased text with full-width punctuation and curly quotes made plain. */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/[“”„「」『』]/g, '"')
      .replace(/[‘’]/g, "'")
      .replace(/，/g, ",")
      .replace(/。/g, ".")
      .replace(/？/g, "?")
      .replace(/！/g, "!")
      .replace(/：/g, ":")
      .replace(/（/g, "(")
      .replace(/）/g, ")")
      // Full-width digits and letters, as a Chinese keyboard types them ("１５：００", "３点"): before, no time was read.
      .replace(/[０-９Ａ-Ｚａ-ｚ]/g, (wide) => String.fromCharCode(wide.charCodeAt(0) - 0xfee0))
      // Emoji say nothing of what is asked ("done with the essay ✅", "move it to friday pls 🙏").
      .replace(/\p{Extended_Pictographic}\uFE0F?/gu, " ")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase()
      .replace(TEXTING_WORDS, (word) => TEXTING_SPELLINGS.find(([pattern]) => pattern.test(word))?.[1] ?? word)
      .replace(WEEKDAY_TYPO, (word) => weekdayTypo(word) ?? word)
      .replace(PART_SHORTHAND, (_, day: string, part: string) => `${day} ${PART_OF_SHORTHAND[part]}`)
      // Traditional characters and spoken Beijing forms of the day words: "週五", "禮拜三", "明兒", "今儿", "后儿".
      .replace(/[週禮]/g, (wide) => (wide === "週" ? "周" : "礼"))
      .replace(/(明|今|后)[儿兒](?=个)?/g, "$1天")
      // What is left of today is today: what has started is history to every request ("clear the rest of today",
      // "push today's remaining reviews to tomorrow", "今天剩下的复习都挪到明天"). Before, a task "rest of" was sought.
      .replace(REST_OF_TODAY, (_, evening: string | undefined) => (evening ? "tonight" : "today"))
      .replace(/\b(today|tonight)'s\s+remaining\b/g, "$1's")
      .replace(/\bremaining\s+(reviews|review sessions|study sessions|sessions)\s+(today|tonight)\b/g, "$1 $2")
      .replace(/(今天|今晚)(?:剩下|剩余|余下|还剩下?|接下来)(?:来)?的/g, "$1的")
  );
}

/**
 * A part of the day said short right after its day ("sat pm", "tmrw am", "fri eve", "today pm"): the afternoon, the
 * morning, the evening, as "saturday afternoon" says it (before, the day was read and the part dropped, or kept in a
 * task's name). Only after a day: "pm me later" and "3pm" are no part of a day, nor "am" of "friday am i free", nor "the
 * sun pm" (no day, as `WEEKDAYS_EN` reads it).
 */
const PART_SHORTHAND =
  /\b((?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur)(?:day)?|sunday|(?<!\b(?:the|a)\s+)sun|today|tomorrow)\s+(am|pm|eve|morn)\b(?!\s+(?:i|me)\b)/g;
const PART_OF_SHORTHAND: Record<string, string> = { am: "morning", morn: "morning", pm: "afternoon", eve: "evening" };

/** A word that may be a weekday mistyped ("thrusday", "firday", "wendsday", "sundy"): ending as a day does. */
const WEEKDAY_TYPO = /(?<![\w'-])[a-z]{3,8}d(?:a?y|ya)(?![\w'-])/g;
/** Words ending in "day" that are no weekday, however close to one ("midday" is two letters from "monday"). */
const NOT_A_WEEKDAY =
  /^(?:today|midday|someday|everyday|birthday|holiday|holidays|weekday|yesterday|heyday|payday|mayday|doomsday|workday|gameday|noonday|sunday|monday|tuesday|wednesday|thursday|friday|saturday)$/;

/** The weekday a mistyped one is (two letters off at most), as written in full; undefined for none. */
function weekdayTypo(word: string): string | undefined {
  if (NOT_A_WEEKDAY.test(word)) return undefined;
  const close = closeWeekday(word);
  return close === undefined ? undefined : WEEKDAY_NAMES[close - 1];
}

/**
 * What students type for a few words the reader looks for: "tmr", "tmrw", "tmw", "2moro", "tomorow" are "tomorrow"
 * ("tomorrows", "tmrws" "tomorrow's"); "tdy" today, "tonite" tonight, "wknd" weekend, "nxt" next, "wk" week; "wat's",
 * "wats", "whats" are "what's" and "wat" / "wut" "what" (each read as the word before anything else is).
 */
const TEXTING_SPELLINGS: ReadonlyArray<[RegExp, string]> = [
  [/^(?:tmrws|tomorrows)$/, "tomorrow's"],
  [/^(?:tmrw?|tmw|tmro|tmrrw|tmrow|tmoro|tomoz|2mor+ow?|2moro|tom+or+ow|tomoro)$/, "tomorrow"],
  [/^(?:tdy|2day)$/, "today"],
  [/^(?:tonite|tnite|2nite|2night)$/, "tonight"],
  [/^(?:wknd|wkend|wkd)$/, "weekend"],
  [/^nxt$/, "next"],
  [/^wk$/, "week"],
  [/^(?:wh?at'?s|wuts?)$/, "what's"],
  [/^(?:wat|wut)$/, "what"],
];
const TEXTING_WORDS =
  /(?<![\w'-])(?:tmrws|tomorrows|tmrw?|tmw|tmro|tmrrw|tmrow|tmoro|tomoz|2mor+ow?|2moro|tom+or+ow|tomoro|tdy|2day|tonite|tnite|2nite|2night|wknd|wkend|wkd|nxt|wk|wh?at'?s|wuts?|wat|wut)(?![\w'-])/g;

export const COUNT_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3, ...NUMBER_WORDS };

export const HOUR_WORDS: Record<string, number> = { a: 1, an: 1, half: 0.5, 半: 0.5, ...COUNT_WORDS };

/** The English weekday names, Monday first, for typos read by closeness ("firday", "fridya"). */
const WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** The weekday (1 = Monday) a word names, typos of up to two letters tolerated, or undefined. */
export function weekdayWord(word: string): number | undefined {
  const exact = WEEKDAYS_EN.find(([pattern]) => pattern.test(word))?.[1];
  return exact ?? (word.length >= 5 ? closeWeekday(word) : undefined);
}

/** The one weekday (1 = Monday) two letters or fewer from `word`; undefined for none, or for two ("thuesday"). */
function closeWeekday(word: string): number | undefined {
  const close = WEEKDAY_NAMES.flatMap((name, index) => (editDistance(word, name) <= 2 ? [index + 1] : []));
  return close.length === 1 ? close[0] : undefined;
}

/** The number of one-letter edits (insert, delete, change, swap of neighbours) from `from` to `to`. */
export function editDistance(from: string, to: string): number {
  const rows = Array.from({ length: from.length + 1 }, (_, row) =>
    Array.from({ length: to.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row <= from.length; row += 1)
    for (let column = 1; column <= to.length; column += 1) {
      const change = from[row - 1] === to[column - 1] ? 0 : 1;
      let best = Math.min(
        rows[row - 1]![column]! + 1,
        rows[row]![column - 1]! + 1,
        rows[row - 1]![column - 1]! + change,
      );
      if (row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1])
        best = Math.min(best, rows[row - 2]![column - 2]! + 1);
      rows[row]![column] = best;
    }
  return rows[from.length]![to.length]!;
}

export function unique(values: number[]): number[] {
  return [...new Set(values)];
}

/**
 * How a task said first, with no 把, is wanted — "作文可以安排在周五", "作文能挪到周五吗", "作文要挪到周五": said after the
 * task and before the verb, no part of its name.
 */
export const MODAL_ZH = "可以|可不可以|能不能|能|就|想|要|得|会|也|还是";

/** The English verbs that move a task; "shift" after "my" / "a" / "work" … is a work shift, no verb. */
export const MOVE_VERB = String.raw`(?:move|reschedule|(?<!\b(?:my|a|the|your|his|her|our|their|work|night|day|morning|evening|late|early)\s)shift|push|bump|bring|postpone|delay|put off)`;

/** How Chinese says a change or a placing is not to be made ("不要", "不用", "先不"). */
export const NOT_ZH = "不要|别|不用|不必|无需|千万别|不想|不需要|没必要|先不|暂时不|暂不";
