/**
 * Standing preferences (docs/design.md#standing-preferences): what a user wants every time ("never on Monday",
 * "I prefer mornings", "我喜欢晚上复习"), kept per user in the store (`memory/preferences.ts`), fed into every stage
 * prompt and, through a domain's `withPreferences`, into its rules. One entry is one preference; its `kind` says
 * what it means to the rules, its `text` is what a person reads.
 *
 * Here because three layers share it: the memory layer stores it, the tools keep to it, the memory model extracts it.
 */
import { z } from "zod";
import { PART_OF_DAY_ZH, sayList, weekdayName, type Language } from "./language.js";
import { isSmallHour } from "./clock.js";

/** A part of the day. */
export type PreferencePart = "morning" | "afternoon" | "evening";

/**
 * The days of the week a part-of-day or hour rule holds on, when the user said them ("no reviews before 10am on
 * weekdays": 1-5; "I never study on Sunday mornings": 7): sorted, each once, never all seven. Without it the rule
 * holds every day (how every preference stored before it reads).
 */
export interface DayScope {
  days?: number[];
}

/** What a preference means, by kind; hard ones bind the domain's search and writes, soft ones its judge. */
export type PreferenceRule =
  /** Never this day of the week (1 = Monday … 7 = Sunday). Hard. */
  | { kind: "avoid_day"; value: number }
  /** Only these days of the week. Hard. */
  | { kind: "only_days"; value: number[] }
  /** Rather this part of the day. Soft (the health judge). */
  | ({ kind: "part_of_day"; value: PreferencePart } & DayScope)
  /** Only this part of the day ("only in the evening"; "weekends only in the afternoon": on those days). Hard. */
  | ({ kind: "only_part_of_day"; value: PreferencePart } & DayScope)
  /**
   * Never this part of the day ("I never study in the evening", "no reviews in the morning"). Hard. The morning or the
   * evening only: leaving out the afternoon leaves two parts of the day, which no bound of a day's slots keeps to.
   */
  | ({ kind: "avoid_part_of_day"; value: Exclude<PreferencePart, "afternoon"> } & DayScope)
  /** Nothing starting before this hour of the clock (0-23), on every day or on its `days`. Hard. */
  | ({ kind: "not_before_hour"; value: number } & DayScope)
  /**
   * Nothing ending after this hour of the clock (0-24; "no studying after 9pm" is 21), on every day or on its `days`.
   * Hard.
   */
  | ({ kind: "not_after_hour"; value: number } & DayScope)
  /** Anything else, in the user's words: for the prompts only. */
  | { kind: "note"; value: string };

export type PreferenceKind = PreferenceRule["kind"];

/** A preference to store: its meaning and its words. */
export type PreferenceDraft = PreferenceRule & { text: string };

/** A stored preference: one entry of a user's profile. */
export type Preference = PreferenceDraft & {
  /** Stable id: the same meaning always has the same id (`memory/preferences.ts` `preferenceId`). */
  id: string;
  /** Where it came from: "card feedback on place (thread t-1)", "stated in a message (thread t-1)". */
  source: string;
  /** The same, as data (absent on entries stored before it was kept): said in each language from it. */
  from?: PreferenceFrom;
  /** ISO time it was stored. */
  createdAt: string;
};

/** What one text says about standing preferences: new ones, and ones the user takes back ("Mondays are fine now"). */
export interface PreferenceChange {
  add: PreferenceDraft[];
  lift: PreferenceRule[];
}

/** Where a text a preference is read from was written. */
export type PreferenceOrigin = { kind: "message" } | { kind: "card_feedback"; tool: string };

/** Where a stored preference was said: the kind of text, and the thread. */
export type PreferenceFrom = PreferenceOrigin & { threadId: string };

/** `value` as a {@link PreferenceFrom} when it is one (a stored entry is read as untrusted), else undefined. */
export function preferenceFromOf(value: unknown): PreferenceFrom | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, tool, threadId } = value as Record<string, unknown>;
  if (typeof threadId !== "string") return undefined;
  if (kind === "message") return { kind, threadId };
  return kind === "card_feedback" && typeof tool === "string" ? { kind, tool, threadId } : undefined;
}

export const NO_PREFERENCE_CHANGE: PreferenceChange = { add: [], lift: [] };

/**
 * A rule about everything ("don't schedule anything on Friday", "don't put anything on Friday", "周五不要安排任何事"):
 * nothing at all goes on the day, so it stands, never a request to arrange the rest elsewhere.
 */
export const BLANKET_CUE =
  /\b(?:do ?n'?t|do not|never)\s+(?:ever\s+)?(?:schedule|put|plan|book|arrange|place|add)\s+anything\b|(?:不要|别|不用)(?:安排|放|排)任何|什么都(?:不要|别)(?:安排|放|排)/i;

/**
 * A habit said plainly, which stands as "never" does: "I don't study on Sundays", "I can't study after 11pm", "don't
 * study after 10pm" (as "no studying after 10pm" is), "I do not do reviews on weekends",
 * "no reviews on Sundays", "no studying before 10", "I only study in the evening", "我周日不学习", "周末不复习",
 * "我只在晚上复习", "周末上午不学习", "周末只在下午学习", "weekends only in the afternoon" (a part of the day of some days).
 * A study word, or a part of the day, is what makes it a habit:
 * "周一不行" and "not Monday" stay one-off wishes for a card.
 */
export const HABIT_CUE =
  /\bi (?:do ?n'?t|do not|ca ?n'?t|cannot|can not) (?:study|review|revise|work|do (?:any )?(?:reviews?|revision|studying|homework))\b|\b(?:do ?n'?t|do not) (?:study|review|revise)\b|\bno (?:more )?(?:reviews?|revision|studying|study(?: sessions?)?|homework)\b(?! (?:is|was|are|were|has|have|had|will|left|yet|fits?|there|here)\b)|\bi only (?:study|review|revise|work)\b|(?:周|星期|礼拜)[一二三四五六日天末](?:都|也|从|一般)?不(?:学习|复习|学|看书)|我(?:一般)?只在(?:上午|下午|晚上|早上)(?:学习|复习)|(?:周末|工作日|(?:周|星期|礼拜)[一二三四五六日天])的?(?:上午|下午|晚上|早上|早晨)(?:都|也|从|一般)?不(?:学习|复习|学|看书)|(?:周末|工作日|(?:周|星期|礼拜)[一二三四五六日天])(?:都|也|一般)?只在(?:上午|下午|晚上|早上)(?:学习|复习)|\b(?:weekends?|weekdays?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\s+only\s+in\s+the\s+(?:mornings?|afternoons?|evenings?)\b/i;

/**
 * Words that make a sentence a standing preference rather than a one-off ("Saturday instead", "周一不行" are
 * one-off): never, always, I prefer, don't ever, from now on, 我从不, 我喜欢, 总是, 以后都, "nothing after 21:00", "nothing
 * after midnight", "nothing before 22:00", "22点之前不要" (as "22点以后不要" is), "don't schedule reviews after 9pm" (as
 * "no reviews after 9pm" is) …
 * "not before 22" and "not after 9pm" stay one-off, as "not Monday" does: the words a card's feedback says it in.
 */
export const STANDING_CUE = new RegExp(
  String.raw`\b(?:never|always|prefer(?:s|red)?|don'?t ever|do not ever|not ever|from now on|in general|generally|as a rule|every (?:time|week)|usually|normally|i (?:like|love|hate)|rather not ever)\b|从不|从来不|永远|总是|一直|喜欢|习惯|以后|每次都|一律|都不要|\bnothing (?:after|past|later than|before|earlier than) \d|\bnothing (?:after|past|later than) midnight\b|\b(?:do ?n'?t|do not|never)\s+(?:ever\s+)?(?:schedule|put|plan|book|arrange|place)\s+(?:any\s+)?(?:(?:of\s+)?my\s+)?(?:reviews?|revision|studying|study sessions?)\s+(?:after|past|later than)\s+\d|(?:点(?:钟)?|午夜)(?:之后|过后|后|以前|之前|前)(?:都|也|就|一般|从来)?(?:不要|不|别|从不|绝不)(?!行|可以|方便)|过了[^,，;；.。]{0,6}(?:点(?:钟)?|午夜)(?:都|也|就|一般|从来)?(?:不要|不|别|从不|绝不)(?!行|可以|方便)|` +
    BLANKET_CUE.source +
    "|" +
    HABIT_CUE.source,
  "i",
);

/** Days a lift of an hour is said to be fine on, after the hour: "fridays", "the weekends", "mondays and fridays". */
const LIFT_DAYS_EN = String.raw`(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?)(?:(?:,| and| or) (?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?))*`;

/**
 * Words that take a standing preference back: "Mondays are fine now", "I can do Mondays again", "I can study after
 * 9pm again", "after 8pm is fine on fridays now" (the days it is fine on said before "now": before, no lift), "周一可以了",
 * "晚上9点以后也可以学习了".
 */
export const LIFT_CUE = new RegExp(
  String.raw`\b(?:(?:is|are) (?:fine|ok|okay|good|alright|free) (?:now|again)|(?:after|past|later than|before|earlier than) (?:\d{1,2}(?::00)?\s*(?:[ap]\.?m\.?|o'?clock)?|midnight) (?:is|are) (?:fine|ok|okay|good|alright|free) on (?:the )?${LIFT_DAYS_EN} (?:now|again)|again is fine|can (?:do|use|have|study(?: on)?) [a-z0-9:. ]+ again|no longer (?:avoid|busy|a problem)|(?:forget|drop|remove) (?:the|my) (?:rule|preference))\b|(?:现在|又|也)?(?:可以|没问题|行)(?:学习|复习|学|安排)?了|不再(?:避开|忙)`,
  "i",
);

/** Prompt tag of the standing preferences (the memory writes the section; an offline model reads it). */
export const PREFERENCES_TAG = "standing_preferences";

/** A preference as the memory model gives it. */
const ModelPreferenceSchema = z.object({
  kind: z
    .enum([
      "avoid_day",
      "only_days",
      "part_of_day",
      "only_part_of_day",
      "avoid_part_of_day",
      "not_before_hour",
      "not_after_hour",
      "note",
    ])
    .describe("What it means to the rules."),
  value: z
    .union([z.number(), z.array(z.number()), z.string()])
    .describe(
      "avoid_day: weekday 1-7 (1 = Monday); only_days: list of weekdays; part_of_day / only_part_of_day: morning | afternoon | evening; avoid_part_of_day: morning | evening; not_before_hour: 0-23 (nothing starts before it); not_after_hour: 0-24, the hour every review ends by ('no studying after 9pm': 21); note: the preference in words.",
    ),
  days: z
    .array(z.number())
    .optional()
    .describe(
      "part_of_day, only_part_of_day, avoid_part_of_day, not_before_hour, not_after_hour: the weekdays (1 = Monday … 7 = Sunday) it holds on when the user said them ('before 10 on weekdays': [1,2,3,4,5]; 'Sunday mornings': [7]); left out when it holds every day.",
    ),
  text: z.string().default("").describe("The preference as the user would read it, short."),
  source_index: z.number().int().optional().describe("The number of the text it was read from (1-based)."),
});

/** The memory stage's contract for standing preferences. */
export const PreferenceExtractionSchema = z
  .object({
    preferences: z
      .array(ModelPreferenceSchema)
      .default([])
      .describe(
        "Standing preferences the user stated (every time, never, always, I prefer). Not one-off requests such as 'Saturday instead'.",
      ),
    lifted: z
      .array(ModelPreferenceSchema.omit({ text: true, source_index: true }))
      .default([])
      .describe("Standing preferences the user takes back ('Mondays are fine now')."),
  })
  .describe("Standing preferences in what the user wrote");

export type PreferenceExtraction = z.infer<typeof PreferenceExtractionSchema>;

const isWeekday = (day: unknown) => typeof day === "number" && Number.isInteger(day) && day >= 1 && day <= 7;

/**
 * A rule's day scope as stored: its weekdays sorted, each once; none (every day) for no list, an empty one or all
 * seven; undefined — no rule — for a list that holds something other than weekdays.
 */
export function scopeOf(days: unknown): DayScope | undefined {
  if (days === undefined || days === null) return {};
  if (!Array.isArray(days) || !days.every(isWeekday)) return undefined;
  const sorted = [...new Set(days as number[])].sort((a, b) => a - b);
  return sorted.length === 0 || sorted.length === 7 ? {} : { days: sorted };
}

/** A model's preference as a rule, or undefined when its value (or its days) does not fit its kind. */
export function ruleOf(entry: { kind: PreferenceKind; value: unknown; days?: unknown }): PreferenceRule | undefined {
  const rule = unscopedRuleOf(entry);
  if (!rule || entry.days === undefined || entry.days === null) return rule;
  // Only a part of the day or an hour holds on some days; a day's own rule says its days in its value.
  if (!isScopable(rule)) return Array.isArray(entry.days) && entry.days.length > 0 ? undefined : rule;
  const scope = scopeOf(entry.days);
  return scope ? ({ ...rule, ...scope } as PreferenceRule) : undefined;
}

/** The kinds that hold on some days of the week (`DayScope`). */
export function isScopable(
  rule: PreferenceRule,
): rule is Extract<
  PreferenceRule,
  { kind: "part_of_day" | "only_part_of_day" | "avoid_part_of_day" | "not_before_hour" | "not_after_hour" }
> {
  return SCOPABLE_KINDS.has(rule.kind);
}

/** The kinds a day scope may narrow: a part of the day or an hour (a day's own kinds name their days). */
const SCOPABLE_KINDS: ReadonlySet<PreferenceKind> = new Set([
  "part_of_day",
  "only_part_of_day",
  "avoid_part_of_day",
  "not_before_hour",
  "not_after_hour",
]);

/** The days of the week `rule` holds on: its scope, else undefined (every day). */
export function daysOfRule(rule: PreferenceRule): readonly number[] | undefined {
  return isScopable(rule) ? rule.days : undefined;
}

/** True when `rule` holds on `weekday` (1 = Monday … 7 = Sunday). */
export function holdsOn(rule: PreferenceRule, weekday: number): boolean {
  const days = daysOfRule(rule);
  return days === undefined || days.includes(weekday);
}

/** A rule without its day scope. */
function unscopedRuleOf(entry: { kind: PreferenceKind; value: unknown }): PreferenceRule | undefined {
  const { kind, value } = entry;
  const weekday = isWeekday;
  const part = (text: unknown): text is PreferencePart =>
    text === "morning" || text === "afternoon" || text === "evening";
  switch (kind) {
    case "avoid_day":
      return weekday(value) ? { kind, value: value as number } : undefined;
    case "only_days":
      return Array.isArray(value) && value.length > 0 && value.every(weekday)
        ? { kind, value: [...new Set(value as number[])].sort() }
        : undefined;
    case "part_of_day":
    case "only_part_of_day":
      return part(value) ? { kind, value } : undefined;
    case "avoid_part_of_day":
      return value === "morning" || value === "evening" ? { kind, value } : undefined;
    // An hour nothing starts before (0-23), or one nothing ends after (0-24, midnight the day's end). A model's "nothing
    // after 0" is midnight, the day's end (24): as 0 it kept every review of the week off it.
    case "not_before_hour":
    case "not_after_hour": {
      const latest = kind === "not_before_hour" ? 23 : 24;
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > latest) return undefined;
      return { kind, value: kind === "not_after_hour" && value === 0 ? 24 : value };
    }
    case "note":
      return typeof value === "string" && value.trim() !== "" ? { kind, value: value.trim().slice(0, 200) } : undefined;
  }
}

/** Days of the week as a scope reads: "weekdays", "weekends", "Sunday", "Monday and Friday" (工作日, 周末, 周日 …). */
export function daysText(days: readonly number[], language: Language = "en"): string {
  const key = days.join(",");
  if (key === "1,2,3,4,5") return language === "zh" ? "工作日" : "weekdays";
  if (key === "6,7") return language === "zh" ? "周末" : "weekends";
  return sayList(
    days.map((day) => weekdayName(day, language)),
    language,
  );
}

/** A rule in plain words, for an entry without words of its own and for the prompts ("never on Monday", "周一不安排"). */
export function describeRule(rule: PreferenceRule, language: Language = "en"): string {
  const days = daysOfRule(rule);
  const said = language === "zh" ? describeInChinese(rule) : describeInEnglish(rule);
  if (!days) return said;
  return language === "zh" ? `${daysText(days, "zh")}${said}` : `${said} on ${daysText(days, "en")}`;
}

/** A rule in English, without its day scope. */
function describeInEnglish(rule: PreferenceRule): string {
  switch (rule.kind) {
    case "avoid_day":
      return `never on ${weekdayName(rule.value, "en")}`;
    case "only_days":
      return `only on ${rule.value.map((day) => weekdayName(day, "en")).join(", ")}`;
    case "part_of_day":
      return `rather in the ${rule.value}`;
    case "only_part_of_day":
      return `only in the ${rule.value}`;
    case "avoid_part_of_day":
      return `never in the ${rule.value}`;
    case "not_before_hour":
      return `nothing before ${hourClock(rule.value)}`;
    case "not_after_hour":
      return rule.value === 24 ? "nothing after midnight" : `nothing after ${hourClock(rule.value)}`;
    case "note":
      return rule.value;
  }
}

/**
 * An hour rule's hour as a clock shows it: "09:00", "21:00" (the day's end, 24, is said as midnight: "nothing after
 * midnight", "晚上12点以后不安排" — before, "nothing after 24:00", a time no clock shows).
 */
function hourClock(hour: number): string {
  return `${String(hour).padStart(2, "0")}:00`;
}

/** A rule in Chinese, without its day scope. */
function describeInChinese(rule: PreferenceRule): string {
  switch (rule.kind) {
    case "avoid_day":
      return `${weekdayName(rule.value, "zh")}不安排`;
    case "only_days":
      return `只在${sayList(
        rule.value.map((day) => weekdayName(day, "zh")),
        "zh",
      )}`;
    case "part_of_day":
      return `尽量在${PART_OF_DAY_ZH[rule.value]}`;
    case "only_part_of_day":
      return `只在${PART_OF_DAY_ZH[rule.value]}`;
    case "avoid_part_of_day":
      return `${PART_OF_DAY_ZH[rule.value]}不安排`;
    case "not_before_hour":
      return `${hourClock(rule.value)}以前不安排`;
    case "not_after_hour":
      return `${rule.value === 24 ? "晚上12点" : hourClock(rule.value)}以后不安排`;
    case "note":
      return rule.value;
  }
}

/** Why a rule is never kept: never stored, and read as no rule from a profile that holds one stored before. */
export type UnkeptRuleReason = "night_hour_after";

/** A preference read but not stored, and why: what the memory says and logs instead of storing it. */
export interface UnkeptPreference {
  reason: UnkeptRuleReason;
  text: string;
  rule: PreferenceRule;
}

/** Each reason in words, English and Chinese: the memory's notice and the mark /prefs puts on such an entry. */
export const UNKEPT_REASON_TEXT: Readonly<Record<UnkeptRuleReason, { en: string; zh: string }>> = {
  night_hour_after: {
    en: 'reviews are only placed within a day, ending by midnight at the latest, so an hour of the night (01:00-05:00) as the last would keep every review off the week. To stop earlier in the evening, say the hour: "no studying after 11pm"',
    zh: "复习只会安排在当天之内，最晚到晚上12点，以凌晨1点到5点为界会让整周都排不进复习。想在晚上更早停下，请说整点，如“晚上11点以后不学习”",
  },
};

/**
 * Why `rule` is never kept, or undefined for a rule that is. "Nothing after 01:00" (an hour of the night, 1-5, as a
 * model may read "no studying after 1am") would leave no slot in any day — a review is placed within its day, by
 * midnight — so the reader reads no such hour, the memory stores none a model gives, and one a profile holds from
 * before is read as no limit (the rules leave it out, /prefs marks it): kept listed, so /forget still reaches it,
 * rather than dropped on load, where it would vanish from /prefs while staying in the store.
 */
export function unkeptReasonOf(rule: PreferenceRule): UnkeptRuleReason | undefined {
  return rule.kind === "not_after_hour" && isSmallHour(rule.value) ? "night_hour_after" : undefined;
}

/** True for the kinds a domain's search and writes must keep to (the others are soft or for the prompts only). */
export function isHardRule(rule: PreferenceRule): boolean {
  // Every kind but the soft one (a part of the day preferred) and a note.
  return rule.kind !== "part_of_day" && rule.kind !== "note";
}
