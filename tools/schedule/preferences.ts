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
  MAX_READ_LENGTH,
  normalizeText,
  parseScheduleRequest,
  readDays,
  readNotBeforeHour,
  readPartOfDay,
  readWhere,
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
    // A class's own rule ("never schedule linear algebra on Monday") is set on the class through its card, not kept
    // for every task (a rule about everything is never read as a class's: `namesEverything`).
    if (parseScheduleRequest(normalized).kind === "class_rules") continue;
    const rules = rulesIn(normalized);
    // One rule: the user's words are its text; several from one sentence: each in plain words.
    const words = rules.length === 1 ? wordsOf(sentence, rules) : "";
    change.add.push(
      ...rules.map((rule) => ({ ...rule, text: rules.length === 1 ? words : describeRule(rule) }) as PreferenceDraft),
    );
  }
  return change;
}

/** Sentences of a message read for standing preferences, at most (each is read as a request is). */
export const MAX_PREFERENCE_SENTENCES = 100;

/**
 * Sentences of a text ("I never study on Mondays. I prefer mornings!"), each once, the first
 * {@link MAX_PREFERENCE_SENTENCES}: a "sentence" of marks alone ("!!!", "。") states nothing, and a message of
 * thousands of sentences (one said again and again, or a pasted text) is not read thousands of times on the event
 * loop every thread shares.
 */
function sentencesOf(text: string): string[] {
  const sentences = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?;。！？；\n])\s*/)) {
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
  const rules: PreferenceRule[] = [];
  // "keep Saturday free" and "周日都空出来" are days to avoid, as the request reader reads them.
  const where = readWhere(normalized);
  const avoided = new Set(where.not.weekdays);
  for (const weekday of avoided) rules.push({ kind: "avoid_day", value: weekday });
  const only = ONLY.test(normalized);
  const wanted = where.only.weekdays.filter((weekday) => !avoided.has(weekday));
  // A day named without "only" ("I always study on Saturday") says when, not that other days are out.
  if (only && wanted.length > 0) rules.push({ kind: "only_days", value: [...wanted].sort() });
  // A part said with a "no" ("I never study in the evening", "no reviews in the morning") keeps it out: never read as
  // a part preferred. The afternoon alone is not kept out (two parts of the day would be left): no rule.
  const notPart = where.slots.notPart;
  if (notPart === "morning" || notPart === "evening") rules.push({ kind: "avoid_part_of_day", value: notPart });
  const part = where.slots.part ?? (avoided.size === 0 && !notPart ? readPartOfDay(normalized) : undefined);
  if (part) rules.push({ kind: only && wanted.length === 0 ? "only_part_of_day" : "part_of_day", value: part });
  const hour = readNotBeforeHour(normalized);
  if (hour !== undefined) rules.push({ kind: "not_before_hour", value: hour });
  return rules;
}

/** The preferences a sentence takes back: the days it names as fine again, a part of the day, an hour. */
function liftedIn(normalized: string): PreferenceRule[] {
  const days = readDays(normalized).weekdays;
  const lifted: PreferenceRule[] = days.map((weekday) => ({ kind: "avoid_day", value: weekday }));
  const part = readPartOfDay(normalized);
  if (part) lifted.push({ kind: "part_of_day", value: part });
  return lifted;
}
