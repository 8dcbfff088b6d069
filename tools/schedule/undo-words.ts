/**
 * Why `propose_undo` cannot take a write back (`tools/undo.ts`), one table a language, as the summary phrases are
 * (`summary-phrases.ts`, which holds the undo's other words): the tool writes its English from it, the model reads
 * that, and what a person reads is read back against the same English and said with the task's name in place of its
 * id (`undoReasonNamed`) and in their language (`undoReasonIn`). A reason that is none of these (a tool's refusal) is
 * left to the reader the caller gives. Its own file: the summary table is at the length a file may have.
 *
 * Several reasons may be joined by "; " (a write taken back in part), and a reason may hold "; " of its own: a text
 * is read as the shortest run of its "; "-parts that is one phrase, then the rest.
 */
import { fill, type Language } from "../../contracts/language.js";
import { readTemplateIn, templatePattern, type PlaceReaders } from "./summary-phrases.js";
import { TASK_STATUS_ZH, type TaskStatus } from "./state.js";
import { placeNameIn } from "./calendar.js";

const EN = {
  // The places of a write the week no longer has as the write left it.
  notWherePlaced: "it is no longer where it was placed",
  movedSince: "it has moved since",
  listMovedSince: "{ids} moved since",
  oneOfTwoMoved: "one of the two has moved since",
  noLongerPending: "it is no longer pending",
  dayNotInWindow: "the day it was on is no longer in the window",
  oneOffGone: "the window has moved on since, and the event was a one-off on days it no longer shows",
  // What was removed or changed since.
  removedSince: "it has been removed since",
  removedAgain: "it has been removed again since",
  removedAlready: "it has been removed already",
  changedSince: "it has changed since; kept as it is now",
  fieldsChangedSince: "its {fields} changed since; kept as it is now",
  fieldsNotCleared: "its {fields} had no value before and cannot be cleared; kept",
  nothingLeft: "nothing it changed is left to give back",
  statusNow: "it is {status} now, not {marked}",
  goneNow: "it is gone now, not {marked}",
  sessionsRemoved: "its sessions have been removed since",
  eventsRemoved: "its events have been removed since",
  // What the record does not hold.
  beforeNotOnRecord: "what it was before is not on record",
  wasNotOnRecord: "what it was is not on record",
  whereNotOnRecord: "where it was is not on record",
  whereTasksNotOnRecord: "where the tasks were is not on record",
  changeNotOnRecord: "what it changed is not on record (it was applied before a restart)",
  // Classes and habits.
  classInUse: "a new class is not removed while tasks use it ({ids})",
  classExistsAgain: "a class with its id exists again (a later write made it)",
  sessionSettled: "{who} is {status}",
  historyKept: "{settled}: history, kept",
  classUsedByOthers: "other tasks use its class ({ids})",
  classStays: "its class stays",
  // History and places the week no longer takes back (the week's own refusal in brackets).
  missedOnlyFromPlace: "a task is missed only from its place, which has passed; reopen it to reschedule it",
  historyNotBack: "it was {status}; its history cannot be given back ({why}); it comes back pending",
  placeNotBack: "its place cannot be given back ({why}); it comes back pending",
  placePassedSinceMarked: "it was marked before its place, which has passed since, so it comes back pending",
  placeBackPassed: "the place it had before, {place}, has passed",
  importKept: "kept: {why}",
  taskStays: "{ids} stays where it is ({why})",
  // Writes undo does not take back.
  rollNotUndone:
    "a roll of the week is not undone: it moved the past into history (done on record, placed reviews missed), and its reverse would rewrite the past, which the clock rule forbids",
  notUndoneByTempo: "{tool} is not undone by Tempo; undo covers every write but roll_window",
  notAScheduleChange: "it is not a schedule change, and only schedule changes are taken back here",
} as const;

// Each reason's Chinese, under its key (the table check, tests/schedule/undo-words.test.ts, reads each back).
const ZH: { readonly [Key in keyof typeof EN]: string } = {
  notWherePlaced: "它已不在当时安排的位置",
  movedSince: "它之后又被移动过",
  listMovedSince: "{ids} 之后又被移动过",
  oneOfTwoMoved: "两者之一之后又被移动过",
  noLongerPending: "它已不再是待安排状态",
  dayNotInWindow: "它原来所在的那一天已不在当前窗口里",
  oneOffGone: "窗口已经往后移动，而这个活动是一次性的，它所在的日子已不再显示",
  removedSince: "它之后已被删除",
  removedAgain: "它之后又被删除了",
  removedAlready: "它已经被删除了",
  changedSince: "它之后又被修改过；保持现在的样子",
  fieldsChangedSince: "它的{fields}之后又被修改过；保持现在的样子",
  fieldsNotCleared: "它的{fields}原来没有值，无法清除；保留",
  nothingLeft: "它改动的内容已没有可以恢复的",
  statusNow: "它现在是{status}状态，不是{marked}状态",
  goneNow: "它已不存在，不是{marked}状态",
  sessionsRemoved: "它的各次练习之后都已被删除",
  eventsRemoved: "它导入的活动之后都已被删除",
  beforeNotOnRecord: "没有记录它原来的样子",
  wasNotOnRecord: "没有记录它原来的内容",
  whereNotOnRecord: "没有记录它原来的位置",
  whereTasksNotOnRecord: "没有记录这些任务原来的位置",
  changeNotOnRecord: "没有记录它改动了什么（它是在重启之前应用的）",
  classInUse: "新建的类别还有任务在用（{ids}），不会删除",
  classExistsAgain: "同一编号的类别又存在了（是之后的修改建立的）",
  sessionSettled: "{who} 是{status}状态",
  historyKept: "{settled}：已成为记录，保留",
  classUsedByOthers: "其他任务还在用它的类别（{ids}）",
  classStays: "它的类别保留",
  missedOnlyFromPlace: "任务只会在它的时间过去后被记为错过；要重新安排，请先重新打开它",
  historyNotBack: "它原来是{status}状态；这段记录无法恢复（{why}）；它恢复为待安排",
  placeNotBack: "它原来的位置无法恢复（{why}）；它恢复为待安排",
  placePassedSinceMarked: "它是在原定时间之前标记的，而那个时间现在已经过去，所以恢复为待安排",
  placeBackPassed: "它之前的位置（{place}）已经过去了",
  importKept: "保留：{why}",
  taskStays: "{ids} 保持在现在的位置（{why}）",
  rollNotUndone:
    "滚动到下一周不会被撤销：它已把过去的部分记为历史（完成的留有记录，已安排的复习记为错过），撤销它就要改写过去，而时间规则不允许",
  notUndoneByTempo: "Tempo 不撤销 {tool}；除了 roll_window，每一种修改都可以撤销",
  notAScheduleChange: "它不是对日程的修改，这里只撤销日程的修改",
};

/** A reason's key in the table. */
export type UndoReasonKey = keyof typeof EN;

/** The reasons, a table a language. */
export const UNDO_WORDS: Readonly<Record<Language, Readonly<Record<UndoReasonKey, string>>>> = { en: EN, zh: ZH };

/** The reason `key` in `language`, its places filled from `places`. */
export function sayUndo(
  language: Language,
  key: UndoReasonKey,
  places: Readonly<Record<string, string | number>> = {},
): string {
  return fill(UNDO_WORDS[language][key], places);
}

/**
 * The keys a reason is read as, one without places first: one is never read as a place of another ("{ids} moved
 * since"). A session's status is read only in the list of a habit's history (its places would read any "x is y").
 */
const KEYS = (Object.keys(EN) as UndoReasonKey[])
  .filter((key) => key !== "sessionSettled")
  .sort((a, b) => Number(EN[a].includes("{")) - Number(EN[b].includes("{")));

/** The key and place values of `text` when it is wholly one reason of `keys`. */
function readReason(
  text: string,
  keys: readonly UndoReasonKey[] = KEYS,
): { key: UndoReasonKey; places: Record<string, string> } | undefined {
  for (const key of keys) {
    const match = templatePattern(EN[key], "whole").exec(text);
    if (!match) continue;
    const names = [...EN[key].matchAll(/\{(\w+)\}/g)].map((found) => found[1]!);
    return { key, places: Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? ""])) };
  }
  return undefined;
}

/**
 * `text` (reasons joined by "; ") with each reason of the table given to `said`, a part that is none to `other`,
 * joined again by `joint`.
 */
function eachReason(
  text: string,
  said: (key: UndoReasonKey, english: string) => string,
  other: (part: string) => string,
  joint: string,
): string {
  const parts = text.split("; ");
  const out: string[] = [];
  for (let from = 0; from < parts.length;) {
    let to = from + 1;
    while (to <= parts.length && !readReason(parts.slice(from, to).join("; "))) to += 1;
    if (to > parts.length) {
      out.push(other(parts[from]!));
      from += 1;
    } else {
      const english = parts.slice(from, to).join("; ");
      out.push(said(readReason(english)!.key, english));
      from = to;
    }
  }
  return out.join(joint);
}

/** An id in a reason's list (`{ids}`, `{who}`), or a name already said. */
const ID_TOKEN = /"(?:[^"\\]|\\.)*"|[A-Za-z0-9_][A-Za-z0-9_.:-]*/g;

/**
 * Reasons `why` with each id its lists name said as the name `names` gives it (JSON-quoted); an id it has no name
 * for stays. Each part of the table is said again in English; any other part stays as it is.
 */
export function undoReasonNamed(why: string, names: Readonly<Record<string, string>>): string {
  const named = (list: string) =>
    list.replace(ID_TOKEN, (token) => (Object.hasOwn(names, token) ? JSON.stringify(names[token]) : token));
  const renamed = (key: UndoReasonKey, english: string): string => {
    const { places } = readReason(english, [key])!;
    if (places.ids !== undefined) places.ids = named(places.ids);
    if (places.who !== undefined) places.who = named(places.who);
    if (places.settled !== undefined)
      places.settled = places.settled
        .split(", ")
        .map((each) => (readReason(each, ["sessionSettled"]) ? renamed("sessionSettled", each) : each))
        .join(", ");
    return sayUndo("en", key, places);
  };
  return eachReason(why, renamed, (part) => part, "; ");
}

/** Field labels of update_task and upsert_task_class (`tools/undo.ts`), in Chinese. */
const FIELD_LABELS_ZH: Readonly<Record<string, string>> = {
  name: "名称",
  class: "类别",
  length: "时长",
  deadline: "截止时间",
  priority: "优先级",
  "earliest day": "最早日期",
  "preferred parts": "偏好时段",
  "min session": "最短单次时长",
  "max session": "最长单次时长",
  "excluded weekdays": "排除的星期",
  "blocked days": "屏蔽的日子",
  strategy: "策略",
  buffer: "间隔",
};

/** A task status in Chinese; another word as it is. */
const statusInChinese = (status: string): string => TASK_STATUS_ZH[status as TaskStatus] ?? status;

/** A list of JSON-quoted names (`"A", "B"`) in Chinese quotation marks, joined by "、"; ids stay. */
export function listInChinese(list: string): string {
  return list
    .split(", ")
    .map((each) => {
      try {
        return each.startsWith('"') ? `“${String(JSON.parse(each))}”` : each;
      } catch {
        return each;
      }
    })
    .join("、");
}

/**
 * Reasons `why` (as propose_undo writes them, or named by `undoReasonNamed`) in `language`: each reason of the table
 * said from its places, a week's refusal inside one (`{why}`) and any other part through `other`.
 */
export function undoReasonIn(why: string, language: Language, other: (text: string) => string): string {
  if (language === "en") return why;
  const readers: PlaceReaders = {
    ids: listInChinese,
    who: listInChinese,
    status: statusInChinese,
    marked: statusInChinese,
    fields: (fields) =>
      fields
        .split(", ")
        .map((field) => FIELD_LABELS_ZH[field] ?? field)
        .join("、"),
    settled: (settled) =>
      settled
        .split(", ")
        .map((each) => readTemplateIn(each, EN.sessionSettled, UNDO_WORDS[language].sessionSettled, "whole", readers))
        .join("，"),
    why: (inner) => undoReasonIn(inner, language, other),
    place: (place) => placeNameIn(place, language),
  };
  const said = (key: UndoReasonKey, english: string) =>
    readTemplateIn(english, EN[key], UNDO_WORDS[language][key], "whole", readers);
  return eachReason(why, said, other, "；");
}
