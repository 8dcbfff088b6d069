/**
 * The task report's own words (`nodes/deliver/task-report.ts`: the outcome and its reason, the step list, the writes,
 * the note) in Chinese, line by line. The report is written in English for the model; a Chinese-speaking user reads it
 * through `reportLineInChinese` — the factual answer deliver gives, the offline policy's answer over the same facts and
 * the terminal's `/state` — one table, so a reworded phrase cannot leave one reader behind. What the report quotes (the
 * goal, step texts, names, a tool's refusal) stays as it is.
 */
import { stepStatusInChinese } from "./language.js";
import { whyOpenInChinese } from "./why-open.js";

/** Why a task stopped, as its step's failure and the report's note give it, in English. */
export const STOP_REASONS = {
  cancelledBatch: "the run was cancelled while it applied the approved changes",
} as const;

const STOP_REASONS_ZH: Readonly<Record<keyof typeof STOP_REASONS, string>> = {
  cancelledBatch: "应用已批准的修改时，这次运行被取消了",
};

/** A task's outcome in Chinese. */
export const OUTCOME_ZH: Readonly<Record<string, string>> = {
  completed: "已完成",
  partial: "部分完成，未全部完成",
  failed: "失败",
  dropped: "已放弃，未完成",
};

/** A stop reason (`STOP_REASONS`) or the round budget's, wherever it stands in `text`, in Chinese. */
export function stopReasonInChinese(text: string): string {
  let said = text;
  for (const [key, english] of Object.entries(STOP_REASONS) as Array<[keyof typeof STOP_REASONS, string]>)
    said = said.split(english).join(STOP_REASONS_ZH[key]);
  return said
    .replace(/^The task stopped: (.*?)\.?$/, "任务已停止：$1。")
    .replace(/^The round budget \((\d+)\) was spent before the plan finished\.$/, "计划完成之前，$1 轮的预算已经用完。")
    .replace(/the round budget \((\d+)\) ran out during this step/, "这一步进行中 $1 轮的预算用完了");
}

/** The outcome's reason (`judgeOutcome`, `buildTaskReport`, `unchangedOutcome`) in Chinese; what it quotes stays. */
export function outcomeReasonInChinese(reason: string): string {
  return stopReasonInChinese(
    reason
      .replace(/^all (\d+) step\(s\) done$/, "全部 $1 个步骤已完成")
      .replace(/^(\d+) of (\d+) step\(s\) done; /, "完成了 $2 个步骤中的 $1 个；")
      .replace(
        /^every step finished, but (\d+) item\(s\) are still pending: /,
        "每个步骤都完成了，但还有 $1 项未完成：",
      )
      .replace(
        /^nothing was changed: you declined (?:the change|all (\d+) changes) it proposed$/,
        (_, count?: string) => `没有任何修改：你拒绝了提议的${count ? `全部 ${count} 项修改` : "修改"}`,
      )
      .replace(/^nothing was changed: /, "没有任何修改：")
      .replace(/^nothing was found: /, "什么也没有找到：")
      .replace(/；(\d+) step\(s\) were not run$/, "；$1 个步骤没有执行")
      .replace(/；step "(.*)" failed: /, "；步骤“$1”失败：")
      .replace(/^no plan was made$/, "没有制定计划"),
  );
}

/** One line of the report in Chinese: its labels, the outcome's reason, a failed step's reason, the note. */
export function reportLineInChinese(line: string): string {
  const said = whyOpenInChinese(line)
    .replace(/^Task: /, "任务：")
    .replace(
      /^Outcome: (\w+) — (.*)$/,
      (_, kind: string, reason: string) => `结果：${OUTCOME_ZH[kind] ?? kind} — ${outcomeReasonInChinese(reason)}`,
    )
    .replace(/^Finished (\d+) of (\d+) steps:$/, "完成了 $2 个步骤中的 $1 个：")
    .replace(/^(\d+)\. \[(\w+)\] /, (_, index: string, status: string) => `${index}. [${stepStatusInChinese(status)}] `)
    .replace(/ — failed: (.*)$/, (_, reason: string) => ` — 失败：${stopReasonInChinese(reason)}`)
    .replace(/ — not carried out: you declined [^;]*$/, " — 未执行：你拒绝了这项修改")
    .replace(/^Still pending: /, "仍未完成：")
    .replace(/^Changes applied \(they stay\): /, "已应用的修改（保留）：")
    .replace(/^Approved but not applied: /, "已批准但未应用：")
    .replace(/^Note: (.*)$/, (_, note: string) => `备注：${stopReasonInChinese(note)}`);
  // The report's lists (the writes, the items still pending) end "and N more" past the ones they name.
  return said.replace(/ and (\d+) more$/, " 等（另有 $1 项）");
}
