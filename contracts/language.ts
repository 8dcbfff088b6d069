/**
 * The user's language (English or Chinese), and the weekday names in it. The language is read
 * from what the user wrote: Chinese characters (CJK) make it "zh", anything else "en". A short answer with no
 * words of its own ("day 5", "Friday", "ok") does not decide: the user's earlier messages do, so a Chinese user who
 * answers "day 5" keeps Chinese replies.
 *
 * Action names and argument keys stay ASCII whatever the language (clients show them raw or via `startCase`).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { isHiddenId, messageText } from "./message-text.js";

/** A language Tempo writes in. */
export type Language = "en" | "zh";

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** "zh" when a text has Chinese characters, "en" when it has a few words of other letters, undefined when it says too little to tell. */
function languageOfText(text: string): Language | undefined {
  if (CJK.test(text)) return "zh";
  const words = text.match(/\p{L}{2,}/gu) ?? [];
  // "day 5", "Friday", "yes": too short to tell a Chinese user's reply from an English one.
  return words.length >= 3 ? "en" : undefined;
}

/**
 * The user's language: of a text ("zh" when it has Chinese characters, else "en"), or of a conversation — its
 * newest user message that tells (see the module note), "en" when none does. Plain strings in the list count as
 * user messages; messages whose id starts with `do-not-render-` (client bookkeeping) and non-user messages are not read.
 */
export function languageOf(input: string | ReadonlyArray<BaseMessage | string> | null | undefined): Language {
  if (input === null || input === undefined) return "en";
  if (typeof input === "string") return CJK.test(input) ? "zh" : "en";
  const texts = input
    .filter((entry) => typeof entry === "string" || (entry.getType() === "human" && !isHiddenId(entry.id)))
    .map((entry) => messageText(entry));
  for (let index = texts.length - 1; index >= 0; index -= 1) {
    const told = languageOfText(texts[index]!);
    if (told) return told;
  }
  // No message says enough on its own: any Chinese at all decides, else English.
  return texts.some((text) => CJK.test(text)) ? "zh" : "en";
}

/** Words in the user's language: `english`, or `chinese` for a Chinese-speaking user. */
export function say(language: Language, english: string, chinese: string): string {
  return language === "zh" ? chinese : english;
}

/** A plan step's status ("done", "running", …) in Chinese; an unknown status as it is. */
export function stepStatusInChinese(status: string): string {
  return STEP_STATUS_ZH[status] ?? status;
}

const STEP_STATUS_ZH: Readonly<Record<string, string>> = {
  done: "完成",
  "not carried out": "未执行",
  failed: "失败",
  skipped: "跳过",
  pending: "未开始",
  running: "进行中",
};

/** Weekday names, 1 = Monday … 7 = Sunday. */
const WEEKDAYS: Readonly<Record<Language, readonly string[]>> = {
  en: ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  zh: ["", "周一", "周二", "周三", "周四", "周五", "周六", "周日"],
};

/** The parts of the day in Chinese. */
export const PART_OF_DAY_ZH = { morning: "上午", afternoon: "下午", evening: "晚上" } as const;

/** A part of the day in Chinese ("上午"); another word as it is. */
export function partInChinese(part: string): string {
  return (PART_OF_DAY_ZH as Readonly<Record<string, string>>)[part] ?? part;
}

/** "Friday" / "周五" for a weekday (1 = Monday); "" for anything else. */
export function weekdayName(weekday: number, language: Language): string {
  return WEEKDAYS[language][weekday] ?? "";
}

/** Items said as one list: "A", "A and B", "A, B and C"; in Chinese "A和B", "A、B和C". */
export function sayList(items: readonly string[], language: Language): string {
  if (items.length <= 1) return items[0] ?? "";
  const [last, rest] = [items.at(-1)!, items.slice(0, -1)];
  return language === "zh" ? `${rest.join("、")}和${last}` : `${rest.join(", ")} and ${last}`;
}

/**
 * The instruction a model gets when the user writes Chinese (English needs none): part of every stage's system prompt
 * (prompts/global.ts), read back by the offline model to answer in the language the graph read.
 */
export function languageInstruction(language: Language): string {
  if (language === "en") return "";
  return (
    "<language>\nThe user writes in Chinese. Write everything the user reads in Simplified Chinese: replies, speak, questions, " +
    "plan step texts, reasons shown to the user and the final summary. Keep tool names, action names, JSON keys and ids exactly as they are (ASCII).\n</language>"
  );
}

/** The values of a template's named places (`{name}`), by name. */
export type Params = Readonly<Record<string, string | number>>;

/** `template` with each `{name}` filled from `params` (a place with no value stays as it is). */
export function fill(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** The names of a template's places, in order. */
export function placesOf(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}
