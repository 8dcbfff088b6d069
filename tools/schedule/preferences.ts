/**
 * The schedule's offline reader of standing preferences (`ToolDomain.readPreferences`), on the request reader's
 * `readWhere`: a sentence that says "every time" — never, always, I prefer, don't ever, 我从不, 我喜欢 (`STANDING_CUE`)
 * — gives the days it rules out ("never on Monday", "周一从不"), the days it keeps to ("only on weekends"), a part of
 * the day ("I prefer mornings": soft; "only in the evening": hard) and an hour ("never before 10"). A sentence without
 * such a word is a one-off wish for this card ("Saturday instead", "周一不行") and no preference. "Mondays are fine
 * now" takes a preference back (`LIFT_CUE`).
 */
import {
  describeRule,
  LIFT_CUE,
  STANDING_CUE,
  type PreferenceChange,
  type PreferenceDraft,
  type PreferenceRule,
} from "../../contracts/preferences.js";
import {
  EVERY_NOT_AFTER_HOUR,
  HOUR_NUMBER_ZH,
  MAX_READ_LENGTH,
  NOT_BEFORE_HOUR,
  normalizeText,
  PAST_HOUR_ZH,
  parseScheduleRequest,
  readDays,
  readNotAfterHour,
  readNotBeforeHour,
  readPartOfDay,
  readWhere,
  withoutNotBeforeHours,
} from "./request-parsing.js";

/** "only", "just", "只", "仅": the days or part named are the only ones. */
const ONLY = /\b(?:only|just|exclusively)\b|只|仅/;

/** Reads the standing preferences in `text` (one sentence or several). */
export function readSchedulePreferences(text: string): PreferenceChange {
  const change: PreferenceChange = { add: [], lift: [] };
  for (const sentence of sentencesOf(text)) {
    const normalized = normalizeText(sentence);
    // A sentence longer than the request reader reads states no preference here (`MAX_READ_LENGTH`).
    if (normalized === "" || normalized.length > MAX_READ_LENGTH) continue;
    if (LIFT_CUE.test(normalized)) {
      change.lift.push(...liftedIn(normalized));
      continue;
    }
    if (!STANDING_CUE.test(normalized)) continue;
    // The hour of a request ("帮我安排复习，晚上9点以后不要") is its own limit, as "arrange my reviews, not after 9pm" is:
    // no rule of every week — unless the sentence says "every time" besides the hour ("以后都", "never").
    if (isLimitOfRequest(normalized)) continue;
    // A class's own rule ("never schedule linear algebra on Monday") is set on the class through its card, not kept
    // for every task (a rule about everything is never read as a class's: `namesEverything`).
    if (isClassRule(normalized)) continue;
    // A day of the calendar ("no studying after 9pm tomorrow", "明天晚上9点以后不要安排复习", "this Friday") is that day
    // alone: no rule of every week ("from tomorrow on" is one, from then).
    if (namesCalendarDay(readWhere(normalized))) continue;
    const rules = rulesIn(normalized);
    // One rule: the user's words are its text; several from one sentence: each in plain words.
    const words = rules.length === 1 ? wordsOf(sentence, rules) : "";
    change.add.push(
      ...rules.map((rule) => ({ ...rule, text: rules.length === 1 ? words : describeRule(rule) }) as PreferenceDraft),
    );
  }
  return change;
}

/**
 * True when a sentence is a request whose time limit is the hour it says nothing goes after or starts before
 * ("帮我安排复习，晚上9点以后不要": an arrangement ending by 21:00; "arrange my reviews, nothing before 10:00": one from
 * 10:00), and nothing says "every time" but that hour's own words (a bare "以后", "nothing before").
 */
function isLimitOfRequest(normalized: string): boolean {
  const hours = [...(normalized.match(EVERY_NOT_AFTER_HOUR) ?? []), ...(normalized.match(EVERY_NOT_BEFORE_HOUR) ?? [])];
  // ("我晚上9点以后从不学习", "I never study after 9pm": the hour's own "never" says it.)
  if (hours.length === 0 || hours.some((hour) => EVERY_TIME_IN_HOUR.test(hour))) return false;
  if (STANDING_CUE.test(normalized.replace(EVERY_NOT_AFTER_HOUR, " ").replace(EVERY_NOT_BEFORE_HOUR, " ")))
    return false;
  const request = parseScheduleRequest(normalized);
  return (
    "where" in request && (request.where.slots.endsBy !== undefined || request.where.slots.notBeforeHour !== undefined)
  );
}

/** Words of an hour that say "every time" themselves: never, 从不, 绝不, 从来, 一般, 都. */
const EVERY_TIME_IN_HOUR = /\bnever\b|从不|绝不|从来|一般|都/;

/** True when `where` names a day by the calendar (tomorrow, this Friday, 3月12日, 今晚), not one from which on. */
function namesCalendarDay(where: ReturnType<typeof readWhere>): boolean {
  return [...(where.only.dates ?? []), ...(where.not.dates ?? [])].some((date) => date.kind !== "onward");
}

/**
 * True when a sentence sets a class's own rule ("never schedule linear algebra on Monday"), not the user's: never when
 * the "class" it names is days ("weekends only in the afternoon", "周末只在下午学习": a part of the day of those days).
 */
export function isClassRule(normalized: string): boolean {
  const request = parseScheduleRequest(normalized);
  if (request.kind !== "class_rules") return false;
  const phrase = normalizeText(request.classPhrase);
  return !(readDays(phrase).weekdays.length > 0 && phrase.replace(DAY_WORDS, "").trim() === "");
}

/** Words of days alone, as a class phrase may hold them ("weekends", "周末", "工作日", "on sundays"). */
const DAY_WORDS =
  /\b(?:on|the|every|weekends?|weekdays?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b|周末|工作日|(?:周|星期|礼拜)[一二三四五六日天]|每|都|[,，和、\s]/g;

/** Sentences of a message read for standing preferences, at most (each is read as a request is). */
export const MAX_PREFERENCE_SENTENCES = 100;

/**
 * Where a sentence ends: after its mark, but never inside "a.m." or "p.m.", after one said mid-sentence ("no studying
 * after 9 p.m. on fridays"), nor inside "21.30" — before, "no studying after 1 a.m." was read as "… after 1 a" (13:00)
 * and "no studying after 21.30" as "… after 21." (21:00).
 */
const SENTENCE_END =
  /(?<=[.!?;。！？；\n])(?!(?<=\b[aApP]\.)[mM]\b)(?!(?<=\b[aApP]\.[mM]\.)\s*[a-z])(?!(?<=\d\.)\d)\s*/;

/**
 * Sentences of a text ("I never study on Mondays. I prefer mornings!"), each once, the first
 * {@link MAX_PREFERENCE_SENTENCES}: a "sentence" of marks alone ("!!!", "。") states nothing, and a message of
 * thousands of sentences (one said again and again, or a pasted text) is not read thousands of times on the event
 * loop every thread shares.
 */
function sentencesOf(text: string): string[] {
  const sentences = new Set<string>();
  for (const sentence of text.split(SENTENCE_END)) {
    if (!/[\p{L}\p{N}]/u.test(sentence)) continue;
    sentences.add(sentence.trim());
    if (sentences.size === MAX_PREFERENCE_SENTENCES) break;
  }
  return [...sentences];
}

/**
 * The words of a standing sentence a preference keeps: the one clause that says "every time" when the rest of the
 * sentence asks for something else ("我周一从不学习，帮我安排复习" keeps "我周一从不学习") and that clause alone states the
 * same `rules`; else the whole sentence.
 */
function wordsOf(sentence: string, rules: readonly PreferenceRule[]): string {
  const whole = sentence.trim();
  const clauses = whole
    .split(/[，,；;]/)
    .map((clause) => clause.trim())
    .filter(Boolean);
  const standing = clauses.filter((clause) => STANDING_CUE.test(normalizeText(clause)));
  if (clauses.length < 2 || standing.length !== 1) return whole;
  return JSON.stringify(rulesIn(normalizeText(standing[0]!))) === JSON.stringify(rules) ? standing[0]! : whole;
}

/** The preferences a standing sentence states. */
function rulesIn(normalized: string): PreferenceRule[] {
  const where = readWhere(normalized);
  const scope = scopeIn(normalized, where);
  if (scope) return scopedRulesIn(normalized, where, scope);
  // An hour no preference keeps ("晚上12点以前不要": before midnight; "晚上25点以后", "晚上9点半以后"): no rule of the
  // hour, nor of its part of the day ("晚上" is the hour's) — before, "晚上25点以后不要" was the evening preferred. A
  // day said in a clause of its own stays ("I never study on Sundays, and nothing after 21:30").
  if (unkeptHourIn(normalized) !== undefined) return dayRulesIn(normalized, where);
  const after = readNotAfterHour(normalized);
  // "No studying after 9pm": the hour nothing ends after, its part of the day ("晚上9点以后不学习") the hour's own.
  if (after !== undefined) {
    const rest: PreferenceRule[] = rulesIn(withoutNotAfterHour(normalized));
    return [...rest, { kind: "not_after_hour", value: after }];
  }
  const rules = dayRulesIn(normalized, where);
  const avoided = new Set(where.not.weekdays);
  const only = ONLY.test(normalized);
  const wanted = where.only.weekdays.filter((weekday) => !avoided.has(weekday));
  // A part said with a "no" ("I never study in the evening", "no reviews in the morning") keeps it out: never read as
  // a part preferred. The afternoon alone is not kept out (two parts of the day would be left): no rule. The morning
  // of the hour ("我上午10点以前从不学习", "never before 10am") is the hour's, no rule of its own.
  const hour = readNotBeforeHour(normalized);
  const notPart = hour !== undefined && HOUR_WITH_ITS_PART.test(normalized) ? undefined : where.slots.notPart;
  if (notPart === "morning" || notPart === "evening") rules.push({ kind: "avoid_part_of_day", value: notPart });
  const part =
    where.slots.part ?? (avoided.size === 0 && !notPart && hour === undefined ? readPartOfDay(normalized) : undefined);
  if (part) rules.push({ kind: only && wanted.length === 0 ? "only_part_of_day" : "part_of_day", value: part });
  if (hour !== undefined) rules.push({ kind: "not_before_hour", value: hour });
  return rules;
}

/** The days a standing sentence rules out or keeps to ("never on Monday", "only on weekends"). */
function dayRulesIn(normalized: string, where: ReturnType<typeof readWhere>): PreferenceRule[] {
  // "keep Saturday free" and "周日都空出来" are days to avoid, as the request reader reads them.
  const avoided = new Set(where.not.weekdays);
  const rules: PreferenceRule[] = [...avoided].map((weekday) => ({ kind: "avoid_day", value: weekday }));
  const wanted = where.only.weekdays.filter((weekday) => !avoided.has(weekday));
  // A day named without "only" ("I always study on Saturday") says when, not that other days are out.
  if (ONLY.test(normalized) && wanted.length > 0) rules.push({ kind: "only_days", value: [...wanted].sort() });
  return rules;
}

/**
 * A part of the day said of the hour itself: "上午10点", "早上9点", "10am", "10 in the morning", "晚上10点" (the
 * evening of "晚上10点之前不要" is its hour's, 22:00, no evening kept out).
 */
const HOUR_WITH_ITS_PART = new RegExp(
  String.raw`(?:上午|早上|早晨|下午|傍晚|晚上)\s*${HOUR_NUMBER_ZH}\s*点|\b\d{1,2}(?::00)?\s*(?:am|a\.m\.)(?![a-z])|\b\d{1,2}(?::00)?\s+in the morning\b`,
);

/**
 * An hour a standing sentence names that no preference keeps to: nothing after it, or until it ("no studying after
 * 9pm", "工作日晚上9点以后不复习", "only until 8") — only an hour nothing starts before is one (`readNotBeforeHour`) — or
 * one no clock has ("晚上100点以后"). The Chinese hour is the request reader's (`HOUR_NUMBER_ZH`).
 */
const UNKEPT_HOUR = new RegExp(
  String.raw`\b(?:after|past|later than|until|till|by|from)\s+\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]m\b|o'?clock\b)?|\b\d{1,2}(?::\d{2})?\s*[ap]m\b|\b\d{1,2}:\d{2}\b|(?:上午|早上|中午|下午|傍晚|晚上|凌晨|半夜|深夜|午夜|夜里)?\s*(?:\d+|${HOUR_NUMBER_ZH})\s*点(?:钟|半)?(?:以后|之后|后|以前|之前|前)?`,
);

/**
 * The hour a standing sentence names that no preference keeps to ("after 9pm", "9点以后"), or undefined: the sentence
 * then states no preference, never one wider than said (`readSchedulePreferences` lists it as not kept).
 */
export function unkeptHourIn(normalized: string): string | undefined {
  // (An hour said with "以前不要" or "以后不要" that reads as none stays: "晚上12点以前不要", "晚上25点以后不要".)
  const rest = withoutNotAfterHour(withoutNotBeforeHours(normalized));
  return UNKEPT_HOUR.exec(rest)?.[0].trim();
}

const EVERY_NOT_BEFORE_HOUR = new RegExp(NOT_BEFORE_HOUR.source, "g");

/**
 * A text without the hours it says nothing ends after ("no studying after 9pm" → "no studying"), its "no" kept; one
 * that reads as no hour ("晚上25点以后不要") stays.
 */
function withoutNotAfterHour(normalized: string): string {
  return normalized.replace(EVERY_NOT_AFTER_HOUR, (said) => {
    if (readNotAfterHour(said) === undefined) return said;
    return /点|午夜/.test(said) ? " 不 " : said.replace(/\s+(?:[\w']+\s+){0,3}?(?:after|past|later than)\s+.*$/, " ");
  });
}

/**
 * The days of the week a part of the day or an hour is said of ("no reviews before 10am on weekdays": 1-5; "I never
 * study on Sunday mornings": 7; "周末上午不学习": 6-7), or undefined when the sentence names no such days — or names
 * them in a clause of their own that rules them out whole ("I never study on Sundays, and nothing before 10").
 */
function scopeIn(normalized: string, where: ReturnType<typeof readWhere>): number[] | undefined {
  const days = [...new Set([...where.not.weekdays, ...where.only.weekdays])].sort((a, b) => a - b);
  if (days.length === 0 || !timed(normalized)) return undefined;
  const clauses = normalized.split(/[,;，；]/).filter((clause) => clause.trim() !== "");
  const dayOwn = clauses.some((clause) => {
    const said = readWhere(clause);
    return said.not.weekdays.length + said.only.weekdays.length > 0 && !timed(clause) && STANDING_CUE.test(clause);
  });
  return dayOwn ? undefined : days;
}

/** True when a text names a part of the day or an hour. */
function timed(text: string): boolean {
  return (
    readPartOfDay(text) !== undefined ||
    readNotBeforeHour(text) !== undefined ||
    readNotAfterHour(text) !== undefined ||
    unkeptHourIn(text) !== undefined
  );
}

/**
 * The preferences of a sentence that says a part of the day or an hour of some days only: that part or hour on those
 * days (`days`), never the days themselves ruled out. "No reviews before 10am on weekdays" is nothing before 10:00 on
 * weekdays; "I never study on Sunday mornings" is never in the morning on Sunday; "weekends only in the afternoon" is
 * only in the afternoon on weekends. The afternoon kept out, or an hour no preference keeps to, states none.
 */
function scopedRulesIn(normalized: string, where: ReturnType<typeof readWhere>, days: number[]): PreferenceRule[] {
  if (unkeptHourIn(normalized) !== undefined) return [];
  const after = readNotAfterHour(normalized);
  // "工作日晚上9点以后不复习": the hour on those days, with what the rest of the sentence says of them.
  if (after !== undefined) {
    const rest = withoutNotAfterHour(normalized);
    const others = timed(rest) ? scopedRulesIn(rest, readWhere(rest), days) : [];
    return [...others, { kind: "not_after_hour", value: after, days }];
  }
  const hour = readNotBeforeHour(normalized);
  if (hour !== undefined) {
    const part = HOUR_WITH_ITS_PART.test(normalized) ? undefined : where.slots.notPart;
    return [
      { kind: "not_before_hour", value: hour, days },
      ...(part === "morning" || part === "evening" ? [{ kind: "avoid_part_of_day" as const, value: part, days }] : []),
    ];
  }
  const part = where.slots.notPart ?? where.slots.part ?? readPartOfDay(normalized);
  if (!part) return [];
  const negated = where.slots.notPart !== undefined || where.not.weekdays.length > 0;
  if (negated) return part === "afternoon" ? [] : [{ kind: "avoid_part_of_day", value: part, days }];
  return [{ kind: ONLY.test(normalized) ? "only_part_of_day" : "part_of_day", value: part, days }];
}

/**
 * An hour a lift says is fine again, by its side's words ("after 9pm", "晚上9点以后", "after 10 in the evening",
 * "after midnight", "午夜以后"; "before 8am"): no minutes. The night's hours ("半夜2点以后", "after 2 at night") are
 * read whole, as the rule's own words are: never another hour of the day ("半夜2点" was 14:00).
 */
function hourLifted(english: string, chinese: string): RegExp {
  return new RegExp(
    String.raw`\b(?:${english})\s+(?:\d{1,2}(?::00)?\s*(?:[ap]\.?m\b\.?|o'?clock\b)?(?![\d:])(?:\s*\b(?:in the (?:morning|afternoon|evening|night)|at night)\b)?|midnight\b)|(?:过了\s*)?(?:(?:上午|早上|早晨|中午|下午|傍晚|晚上|凌晨|半夜|深夜|夜里|午夜)?\s*(?<!周|星期|礼拜)${HOUR_NUMBER_ZH}\s*点(?:钟)?|午夜)(?:${chinese})`,
  );
}

/** Each side of an hour a lift may take back: the rule, its words in a lift, and the reader of the rule's own words. */
const HOURS_LIFTED = [
  {
    kind: "not_after_hour",
    said: hourLifted("after|past|later than", `以后|之后|过后|后|${PAST_HOUR_ZH}`),
    read: readNotAfterHour,
  },
  { kind: "not_before_hour", said: hourLifted("before|earlier than", "以前|之前|前"), read: readNotBeforeHour },
] as const;

/** A lift's days as a rule's scope: the days named, each once, in order; none (every day) when it names all or none. */
function dayScopeOf(days: readonly number[]): { days?: number[] } {
  const scope = [...new Set(days)].sort((a, b) => a - b);
  return scope.length > 0 && scope.length < 7 ? { days: scope } : {};
}

/**
 * The hour rules a lift names, on the days it names ("studying after 9pm is fine now": nothing after 21:00; "before
 * 8am is fine now", "早上8点以前也可以了": nothing before 8:00 — before, that was no lift, or the morning's), each read
 * as the rule's own words are, so a lift meets the rule it takes back.
 */
function hoursLiftedIn(normalized: string, days: readonly number[]): PreferenceRule[] {
  return HOURS_LIFTED.flatMap(({ kind, said, read }) => {
    const words = said.exec(normalized)?.[0].trim();
    const hour = words === undefined ? undefined : (read(`not ${words}`) ?? read(`${words}不`));
    return hour === undefined ? [] : [{ kind, value: hour, ...dayScopeOf(days) }];
  });
}

/** The preferences a sentence takes back: the days it names as fine again, a part of the day, an hour. */
function liftedIn(normalized: string): PreferenceRule[] {
  const days = readDays(normalized).weekdays;
  // "Studying after 9pm is fine now", "晚上9点以后也可以学习了": the hour nothing ended after, its part the hour's own.
  if (HOURS_LIFTED.some(({ said }) => said.test(normalized))) return hoursLiftedIn(normalized, days);
  const part = readPartOfDay(normalized);
  // "Sunday mornings are fine now": the morning on Sunday alone, never the whole of Sunday or every morning.
  if (part && days.length > 0) {
    return [{ kind: "part_of_day", value: part, ...dayScopeOf(days) }];
  }
  const lifted: PreferenceRule[] = days.map((weekday) => ({ kind: "avoid_day", value: weekday }));
  if (part) lifted.push({ kind: "part_of_day", value: part });
  return lifted;
}
