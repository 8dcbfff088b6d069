/**
 * The task report's own words (`nodes/deliver/task-report.ts`: the outcome and its reason, the step list, the writes,
 * the note), one table a language, each phrase a template with `{named}` places. The report is said in the user's
 * language where it is made, from its facts: the outcome's reason is kept as data (`OutcomeReason`, beside the English
 * the model reads) and said with `sayOutcomeReason`; the factual answer's lines with `sayReport`.
 *
 * Text that reaches a reader only as the report's English — the offline policy, which reads the model's prompt as a
 * model would; a thread saved before the reason was kept as data; a stop note in `lastError` — is read back against the
 * same English templates (`reportLineIn`, `reasonIn`, `stopNoteIn`): the pattern is made from the template, so a
 * reworded English phrase is read back as it is now written, and the table check (tests/contracts/report-words.test.ts)
 * fails when a phrase lacks its Chinese. What the report quotes (the goal, step texts, names, a tool's refusal) stays
 * as it is.
 */
import { fill, placesOf, stepStatusInChinese, type Language, type Params } from "./language.js";

export { fill, placesOf };
import { whyOpenIn } from "./why-open.js";

const EN = {
  // The report's lines.
  task: "Task: {goal}",
  outcome: "Outcome: {kind} — {reason}",
  finished: "Finished {done} of {total} steps:",
  failedStep: " — failed: {reason}",
  stillPending: "Still pending: {name} ({id}) — {why}",
  applied: "Changes applied (they stay): {count} — {names}",
  approvedNotApplied: "Approved but not applied: {count} — {names}",
  note: "Note: {note}",
  andMore: "{names} and {more} more",
  // The outcomes.
  completed: "completed",
  partial: "partial",
  failed: "failed",
  dropped: "dropped",
  // The outcome's reasons (`judgeOutcome`, `buildTaskReport`, `unchangedOutcome`).
  allDone: "all {done} step(s) done",
  someDone: "{done} of {total} step(s) done; {why}",
  stepFailed: 'step "{step}" failed: {reason}',
  noReasonGiven: "no reason given",
  notRun: "{count} step(s) were not run",
  noPlan: "no plan was made",
  stillOpen: "every step finished, but {count} item(s) are still pending: {names}",
  declinedOne: "nothing was changed: you declined the change it proposed",
  declinedAll: "nothing was changed: you declined all {count} changes it proposed",
  nothingChanged: "nothing was changed: {why}",
  noChangeProposed: "no change was proposed",
  nothingFound: "nothing was found: {why}",
  // Why a task stopped, as its note (`lastError`) and its step's failure give it.
  taskStopped: "The task stopped: {why}.",
  cancelledBatch: "the run was cancelled while it applied the approved changes",
  roundBudgetSpent: "The round budget ({rounds}) was spent before the plan finished.",
  roundBudgetRanOut: "the round budget ({rounds}) ran out during this step",
  // Why a step failed in execute: its tools failed, or its changes were declined, so many times in a row.
  toolErrorsInARow: "{count} tool errors in a row (last, from {tool}: {last})",
  declinedInARow: "you declined the {count} change(s) it proposed in a row",
  // A step an offline policy (any domain's) does not understand: why it was not carried out.
  notUnderstood: 'the offline policy does not understand the step "{step}"',
} as const;

/** A phrase of the report, by its key. */
export type ReportKey = keyof typeof EN;

const ZH: Readonly<Record<ReportKey, string>> = {
  task: "任务：{goal}",
  outcome: "结果：{kind} — {reason}",
  finished: "完成了 {total} 个步骤中的 {done} 个：",
  failedStep: " — 失败：{reason}",
  stillPending: "仍未完成：{name} ({id}) — {why}",
  applied: "已应用的修改（保留）：{count} — {names}",
  approvedNotApplied: "已批准但未应用：{count} — {names}",
  note: "备注：{note}",
  andMore: "{names} 等（另有 {more} 项）",
  completed: "已完成",
  partial: "部分完成，未全部完成",
  failed: "失败",
  dropped: "已放弃，未完成",
  allDone: "全部 {done} 个步骤已完成",
  someDone: "完成了 {total} 个步骤中的 {done} 个；{why}",
  stepFailed: "步骤“{step}”失败：{reason}",
  noReasonGiven: "没有给出原因",
  notRun: "{count} 个步骤没有执行",
  noPlan: "没有制定计划",
  stillOpen: "每个步骤都完成了，但还有 {count} 项未完成：{names}",
  declinedOne: "没有任何修改：你拒绝了提议的修改",
  declinedAll: "没有任何修改：你拒绝了提议的全部 {count} 项修改",
  nothingChanged: "没有任何修改：{why}",
  noChangeProposed: "没有提议任何修改",
  nothingFound: "什么也没有找到：{why}",
  taskStopped: "任务已停止：{why}。",
  cancelledBatch: "应用已批准的修改时，这次运行被取消了",
  roundBudgetSpent: "计划完成之前，{rounds} 轮的预算已经用完。",
  roundBudgetRanOut: "这一步进行中 {rounds} 轮的预算用完了",
  toolErrorsInARow: "工具连续出错 {count} 次（最后一次来自 {tool}：{last}）",
  declinedInARow: "你连续拒绝了提议的 {count} 项修改",
  notUnderstood: "离线模式下无法理解步骤“{step}”",
};

/** The report's words, a table a language. */
export const REPORT_WORDS: Readonly<Record<Language, Readonly<Record<ReportKey, string>>>> = { en: EN, zh: ZH };

/** The phrase `key` of the report in `language`, its places filled from `params`. */
export function sayReport(language: Language, key: ReportKey, params: Params = {}): string {
  return fill(REPORT_WORDS[language][key], params);
}

/** The places that hold a number (read back as digits only, so a count never swallows a phrase before it). */
const NUMBERS = new Set(["count", "done", "total", "more", "rounds"]);

const patterns = new Map<string, RegExp>();

/** The values of `template`'s places when `text` is that template filled, else undefined. */
export function readBack(template: string, text: string): Record<string, string> | undefined {
  let pattern = patterns.get(template);
  const places = placesOf(template);
  if (!pattern) {
    const parts = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const source = parts.reduce((whole, part, index) => {
      const place = places[index - 1]!;
      const value = NUMBERS.has(place) ? "(\\d+)" : index === parts.length - 1 ? "([\\s\\S]*)" : "([\\s\\S]*?)";
      return `${whole}${value}${part}`;
    });
    pattern = new RegExp(`^${source}$`);
    patterns.set(template, pattern);
  }
  const match = pattern.exec(text);
  if (!match) return undefined;
  return Object.fromEntries(places.map((name, index) => [name, match[index + 1] ?? ""]));
}

// ── The outcome's reason, as data ────────────────────────────────────────

/** Why a task ended as it did, as data (`TaskOutcomeRecord.said`); said in a language by `sayOutcomeReason`. */
export type OutcomeReason =
  | { key: "allDone"; done: number }
  | { key: "someDone"; done: number; total: number; why: OutcomeReason }
  | { key: "stepFailed"; step: string; reason: string | null }
  | { key: "notRun"; count: number }
  | { key: "noPlan" }
  /** The task's note (`lastError`): a stop note of the table, or the words of whatever wrote it. */
  | { key: "note"; text: string }
  | { key: "stillOpen"; names: string[] }
  | { key: "declined"; count: number }
  /** Nothing was changed: why (the steps' own reasons, or the outcome before it was judged so). */
  | { key: "nothingChanged"; why: OutcomeReason }
  /** The steps' own reasons for not carrying out what they were to do (their words, quoted); none: no change proposed. */
  | { key: "stepReasons"; reasons: string[] }
  | { key: "nothingFound"; reasons: string[] };

/** The outcome's reason in `language` (English for the model and the outcome's `reason`). */
export function sayOutcomeReason(reason: OutcomeReason, language: Language): string {
  const say = (key: ReportKey, params: Params = {}) => sayReport(language, key, params);
  switch (reason.key) {
    case "allDone":
      return say("allDone", { done: reason.done });
    case "someDone":
      return say("someDone", { done: reason.done, total: reason.total, why: sayOutcomeReason(reason.why, language) });
    case "stepFailed":
      return say("stepFailed", {
        step: reason.step,
        reason: reason.reason === null ? say("noReasonGiven") : stopNoteIn(reason.reason, language),
      });
    case "notRun":
      return say("notRun", { count: reason.count });
    case "noPlan":
      return say("noPlan");
    case "note":
      return stopNoteIn(reason.text, language);
    case "stillOpen":
      return say("stillOpen", { count: reason.names.length, names: reason.names.join(", ") });
    case "declined":
      return reason.count === 1 ? say("declinedOne") : say("declinedAll", { count: reason.count });
    case "nothingChanged":
      return say("nothingChanged", { why: sayOutcomeReason(reason.why, language) });
    case "stepReasons":
      return reason.reasons.length > 0 ? reason.reasons.join("; ") : say("noChangeProposed");
    case "nothingFound":
      return say("nothingFound", { why: reason.reasons.join("; ") });
  }
}

/** An outcome kind ("partial", …) in `language`; an unknown kind as it is. */
export function sayOutcomeKind(kind: string, language: Language): string {
  return kind in EN ? sayReport(language, kind as ReportKey) : kind;
}

// ── Reading the report's English back ────────────────────────────────────

/** Reads `text` as one of `keys`' English phrases and says it in `language`, each place through `inner`. */
function sayAgain(
  text: string,
  language: Language,
  keys: readonly ReportKey[],
  inner: (place: string, value: string) => string,
): string | undefined {
  for (const key of keys) {
    const params = readBack(EN[key], text);
    if (params)
      return sayReport(
        language,
        key,
        Object.fromEntries(Object.entries(params).map(([place, value]) => [place, inner(place, value)])),
      );
  }
  return undefined;
}

/** A note (`lastError`) or a step's failure in `language` when it is one of the table's stop notes; else as it is. */
export function stopNoteIn(text: string, language: Language): string {
  if (language === "en") return text;
  return (
    sayAgain(
      text,
      language,
      ["cancelledBatch", "taskStopped", "roundBudgetSpent", "roundBudgetRanOut", "toolErrorsInARow", "declinedInARow"],
      (place, value) => (place === "why" ? stopNoteIn(value, language) : value),
    ) ??
    // A stop note without its closing full stop, as the report's reason quotes it.
    sayAgain(`${text}.`, language, ["taskStopped", "roundBudgetSpent"], (place, value) =>
      place === "why" ? stopNoteIn(value, language) : value,
    ) ??
    text
  );
}

/** The reasons, most specific first (a phrase with places is tried after the fixed ones it would swallow). */
const REASON_KEYS: readonly ReportKey[] = [
  "declinedOne",
  "declinedAll",
  "noPlan",
  "noChangeProposed",
  "noReasonGiven",
  "allDone",
  "stillOpen",
  "notRun",
  "stepFailed",
  "someDone",
  "nothingChanged",
  "nothingFound",
];

/**
 * An outcome's reason kept only as English (a thread saved before reasons were kept as data; the offline policy's
 * reading of the prompt) in `language`, read back against the table; a reason it does not know stays as it is.
 */
export function reasonIn(reason: string, language: Language): string {
  if (language === "en") return reason;
  return (
    sayAgain(reason, language, REASON_KEYS, (place, value) =>
      place === "why" || place === "reason" ? reasonIn(value, language) : value,
    ) ?? stopNoteIn(reason, language)
  );
}

/**
 * One line of the report's English (`mechanicalSummary`) in `language`, read back against the table: its labels, the
 * outcome and its reason, a step's status and failure, the writes, the note. The offline policy reads the report so
 * (it is given the prompt's English, as a model is); a line it does not know stays as it is.
 */
export function reportLineIn(line: string, language: Language): string {
  if (language === "en") return line;
  const names = (value: string) => sayAgain(value, language, ["andMore"], (_, named) => named) ?? value;
  const said = sayAgain(
    line,
    language,
    ["task", "outcome", "finished", "stillPending", "applied", "approvedNotApplied", "note"],
    (place, value) => {
      if (place === "kind") return sayOutcomeKind(value, language);
      if (place === "reason") return reasonIn(value, language);
      if (place === "note") return stopNoteIn(value, language);
      if (place === "why") return whyOpenIn(value, language);
      if (place === "names") return names(value);
      return value;
    },
  );
  if (said !== undefined) return said;
  // A step's line: "N. [status] content — summary — failed: reason".
  const step = /^(\d+)\. \[(\w+(?: \w+)*)\] ([\s\S]*)$/.exec(line);
  const rest = step ? step[3]! : line;
  const failedAt = rest.lastIndexOf(fill(EN.failedStep, { reason: "" }));
  const told =
    failedAt === -1
      ? rest
      : `${rest.slice(0, failedAt)}${sayReport(language, "failedStep", {
          reason: stopNoteIn(rest.slice(failedAt + fill(EN.failedStep, { reason: "" }).length), language),
        })}`;
  return step ? `${step[1]}. [${stepStatusInChinese(step[2]!)}] ${told}` : told;
}

/**
 * The factual summary's English (`mechanicalSummary` as the model reads it) with its own words in `language`, line by
 * line (`reportLineIn`); what the tools and the user wrote (the goal, step texts, item names, reasons) stays as it is.
 * English is returned unchanged. The offline policy reads the report so, as it is given the prompt's English.
 */
export function factsInLanguage(factual: string, language: Language): string {
  if (language === "en") return factual;
  return factual
    .split("\n")
    .map((line) => reportLineIn(line, language))
    .join("\n");
}
