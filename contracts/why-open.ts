/**
 * Why an item a task was about is still open, in the task report's words (`nodes/deliver/task-report.ts` writes them
 * after "Still pending: name (id) — "), and the same reasons in Chinese. The answer's facts and the offline policy's
 * answer over a model server both read them: one table, so a reworded reason cannot leave one reader behind.
 */
import type { Language } from "./language.js";

/** The reasons the report gives, in English. A refused change's reason goes on with the tool's own words. */
export const WHY_OPEN = {
  declined: "you declined the proposed change",
  fitsRefused: "it fits as the week stands, but was not placed (a place tried for it was refused)",
  fitsNotPlaced: "it fits as the week stands, but this task did not place it",
  fitsNowhere: "fits nowhere free as the week stands",
  refused: "a change to it was refused: ",
  notReached: "this task did not get to it",
} as const;

/** The same reasons in Chinese. */
export const WHY_OPEN_ZH: Readonly<Record<keyof typeof WHY_OPEN, string>> = {
  declined: "你拒绝了提议的修改",
  fitsRefused: "按目前的日程放得下，但没有放进去（为它尝试的位置被拒绝了）",
  fitsNotPlaced: "按目前的日程放得下，但这次任务没有安排它",
  fitsNowhere: "按目前的日程，没有能放下它的空闲时间",
  refused: "对它的修改被拒绝：",
  notReached: "这次任务没有处理到它",
};

/** A reason the report gives (`WHY_OPEN`) in `language`; a refused change's tool words and other reasons stay. */
export function whyOpenIn(why: string, language: Language): string {
  if (language === "en") return why;
  for (const [key, english] of Object.entries(WHY_OPEN) as Array<[keyof typeof WHY_OPEN, string]>) {
    // A whole reason, or the refused change's prefix followed by the tool's words.
    if (why === english || (key === "refused" && why.startsWith(english)))
      return `${WHY_OPEN_ZH[key]}${why.slice(english.length)}`;
  }
  return why;
}

/** `line`'s reason after " — " in Chinese, when it is one of the report's (a refused change's tool words stay). */
export function whyOpenInChinese(line: string): string {
  for (const [key, english] of Object.entries(WHY_OPEN) as Array<[keyof typeof WHY_OPEN, string]>) {
    const marker = ` — ${english}`;
    const at = line.lastIndexOf(marker);
    // A whole reason ends the line; the refused change's prefix is followed by the tool's words.
    if (at !== -1 && (key === "refused" || at + marker.length === line.length))
      return `${line.slice(0, at)} — ${whyOpenIn(line.slice(at + 3), "zh")}`;
  }
  return line;
}
