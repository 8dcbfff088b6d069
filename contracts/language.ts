/**
 * The user's language, and the few words Tempo writes itself in it (English and Chinese). The language is read
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
  const texts = input.filter((entry) => typeof entry === "string" || (entry.getType() === "human" && !isHiddenId(entry.id))).map((entry) => messageText(entry));
  for (let index = texts.length - 1; index >= 0; index -= 1) {
    const told = languageOfText(texts[index]!);
    if (told) return told;
  }
  // No message says enough on its own: any Chinese at all decides, else English.
  return texts.some((text) => CJK.test(text)) ? "zh" : "en";
}

/** The same text in each language. */
export type Phrase = Readonly<Record<Language, string>>;

/** The text of `phrase` in `language`. */
export function say(language: Language, phrase: Phrase): string {
  return phrase[language];
}

/** Weekday names, 1 = Monday … 7 = Sunday. */
const WEEKDAYS: Readonly<Record<Language, readonly string[]>> = {
  en: ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  zh: ["", "周一", "周二", "周三", "周四", "周五", "周六", "周日"],
};

/** "Friday" / "周五" for a weekday (1 = Monday); "" for anything else. */
export function weekdayName(weekday: number, language: Language): string {
  return WEEKDAYS[language][weekday] ?? "";
}

/** Words Tempo's own texts (cards, questions, summaries) use, for writers outside this module (cards, deliver). */
export const PHRASES = {
  slots: { en: "slots {from}-{to}", zh: "第{from}-{to}节" },
  whichDay: { en: "Which day do you mean?", zh: "你指的是哪一天？" },
  whichTask: { en: "Which task do you mean?", zh: "你指的是哪个任务？" },
  approve: { en: "Approve to apply it, edit it, or reject it with a reason.", zh: "批准即执行，也可以修改，或说明理由拒绝。" },
  planCard: { en: "The plan", zh: "计划" },
  question: { en: "Question", zh: "问题" },
  answerHere: { en: "Type your answer in the Answer field.", zh: "请在 Answer 一栏填写你的回答。" },
} as const satisfies Record<string, Phrase>;

/** A phrase with `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** "Friday (day 5)" / "周五（第5天）" for a day of the window with a known weekday, else "day 5" / "第5天". */
export function dayText(day: number, weekday: number | undefined, language: Language): string {
  const index = language === "zh" ? `第${day}天` : `day ${day}`;
  if (weekday === undefined) return index;
  return language === "zh" ? `${weekdayName(weekday, "zh")}（${index}）` : `${weekdayName(weekday, "en")} (${index})`;
}
