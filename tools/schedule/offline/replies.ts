/**
 * The offline policy's own words: the chat stage (greetings, what it can do,
 * an honest answer to what it does not understand) and the deliver stage
 * (the answer to a read request, or the summary of a task as it went).
 */
import { languageOf } from "../../../contracts/language.js";
import { goalOf, latestUserLine, section, type PromptView } from "./prompt-reading.js";
import { isAnywhere, parseScheduleRequest, READ_REQUEST_KINDS } from "./request-parsing.js";

export { languageOf };

/** What the offline policy can do, in the user's language. */
export function capabilities(language: "en" | "zh"): string {
  if (language === "zh") {
    return [
      "我现在以离线模式运行（没有配置模型密钥），能理解这些日程请求：",
      "- 安排：“帮我安排下周的复习”“只安排周三”“把 矩阵复习 安排到周五晚上”",
      "- 移动 / 交换 / 撤下：“把 矩阵复习 移到周四下午”“交换 A 和 B”“取消安排 A”",
      "- 查询：“周一什么时候有空”“周二有什么安排”“还有哪些任务没安排”“解释一下 A”",
      "任务可以用名称（模糊匹配）或 id 指代，日期可以是星期几或第几天，时段可以是第几节或上午/下午/晚上。",
      "配置模型密钥（OPENAI_API_KEY 或 OPENAI_BASE_URL）后可以处理自由表述的请求。",
    ].join("\n");
  }
  return [
    "I'm running offline (no model key is set), so I understand these schedule requests:",
    '- arrange: "arrange my reviews for next week", "arrange Wednesday", "schedule the matrix review on Friday evening"',
    '- move / swap / unplace: "move the matrix review to Thursday afternoon", "swap A and B", "unplace A"',
    '- ask: "when am I free on Monday?", "what\'s on Tuesday?", "which tasks are pending?", "explain A"',
    "Name tasks by name (roughly is fine) or id, days by weekday or day number, and times by slot number or morning / afternoon / evening.",
    "Set OPENAI_API_KEY (or OPENAI_BASE_URL) to use a model for free-form requests.",
  ].join("\n");
}

/** "Offline, I can't act on …" for feedback the policy does not understand, in the feedback's language. */
export function cannotActOn(feedback: string, consequence: { en: string; zh: string }): string {
  return languageOf(feedback) === "zh"
    ? `离线模式下我无法理解“${feedback}”（配置模型密钥后可处理自由表述的反馈），${consequence.zh}。`
    : `Offline, I can't act on "${feedback}" (a model key unlocks free-form feedback), ${consequence.en}.`;
}

/** The chat stage's decision for the latest user message. */
export function decideChat(view: PromptView): Record<string, unknown> {
  const message = (/Latest user message:\s*([\s\S]*)$/.exec(section(view.context, "instruction"))?.[1] ?? latestUserLine(view)).trim();
  const language = languageOf(message);
  const request = parseScheduleRequest(message);
  if (request.kind === "greeting") {
    const reply = language === "zh" ? "你好！我是 Tempo（离线模式）。可以让我安排下周的复习，或者问我哪天有空。" : "Hello! I'm Tempo, running offline. Ask me to arrange your review sessions for next week, or when you are free.";
    return { intent: "chat", reply, reason: "a greeting" };
  }
  if (request.kind === "help") return { intent: "chat", reply: capabilities(language), reason: "a question about what Tempo can do" };
  if (request.kind === "unknown") {
    const preface = language === "zh" ? `离线模式下我理解不了“${message}”。` : `Offline, I can't tell what to do with "${message}".`;
    return { intent: "chat", reply: `${preface}\n${capabilities(language)}`, reason: "not a request the offline policy understands" };
  }
  return { intent: "task", reply: "", reason: `a schedule request (${request.kind})` };
}

/** A plan step as it ended: its status ("done", "failed", …), its text and its summary. */
export interface StepOutcome {
  status: string;
  content: string;
  summary: string;
}

/** The deliver stage's answer: a read request's answer as found, or the task's steps as they ended. */
export function decideDeliver(view: PromptView): string {
  const state = section(view.context, "stage_state");
  const note = /\nNote: ([\s\S]*)$/.exec(state)?.[1]?.trim();
  // The task's real outcome heads the stage state, and the items it left open follow its steps.
  const outcome = /^Outcome: (\w+)/m.exec(state)?.[1] ?? "completed";
  const stillPending = state.split("\n").filter((line) => line.startsWith("Still pending:"));
  const report = (note === undefined ? state : state.slice(0, state.indexOf("\nNote: ")))
    .split("\n")
    .filter((line) => !line.startsWith("Still pending:"))
    .join("\n");
  const steps = [...report.matchAll(/(?:^|\n)(\d+)\. \[(\w+)\] ([\s\S]*?)(?=\n\d+\. \[|$)/g)].map(([, , status = "", rest = ""]) => {
    const split = rest.indexOf(" — ");
    return { status, content: split === -1 ? rest : rest.slice(0, split), summary: split === -1 ? "" : rest.slice(split + 3).trim() };
  });
  return finalAnswer({ goal: goalOf(view), steps, outcome, stillPending, ...(note === undefined ? {} : { note }) });
}

/**
 * The final answer for a task that ended with `steps`: a read request's answer as found, a single write's result, or
 * the steps as they ended under a heading that never claims more than `outcome`. The deliver stage answers with it,
 * and the execute stage gives it as done's answer (so a completed task needs no deliver call).
 */
export function finalAnswer(input: { goal: string; steps: StepOutcome[]; outcome: string; stillPending?: string[]; note?: string }): string {
  const { steps, outcome, note } = input;
  const request = parseScheduleRequest(input.goal);
  const only = steps.length === 1 ? steps[0] : undefined;
  if (only && (READ_REQUEST_KINDS.has(request.kind) || READ_REQUEST_KINDS.has(parseScheduleRequest(only.content).kind))) {
    return only.status === "done" && only.summary ? only.summary : `I could not answer that: ${note ?? "the step did not finish"}.`;
  }
  if (only && only.status === "done") {
    return only.summary.startsWith("not carried out") ? `Your schedule is unchanged: ${only.summary.replace(/^not carried out: /, "")}.` : `Done: ${only.summary}.`;
  }
  const done = steps.filter((step) => step.status === "done").length;
  const verify = steps.at(-1)?.summary ?? "";
  const pending = /reports (\d[\d,]*) pending/.exec(verify)?.[1];
  const place = steps.find((step) => /^place\b/i.test(step.content));
  const scoped = place ? parseScheduleRequest(place.content) : undefined;
  let heading = `Finished ${done} of ${steps.length} steps.`;
  if (done === steps.length && steps.length > 0 && scoped?.kind === "arrange" && (scoped.tasks.length > 0 || !isAnywhere({ ...scoped.where, not: { weekdays: [], days: [] } }))) {
    // A scoped arrange ("only Wednesday", named tasks) is judged by its own step, not by the whole week.
    heading = /skipped|left pending/.test(place?.summary ?? "") ? "Placed what fits of what you asked; some of it is left pending (below)." : "Placed what you asked for.";
    if (pending !== undefined && pending !== "0") heading += ` ${pending} review task(s) in the whole week are still pending.`;
  } else if (done === steps.length && steps.length > 0) {
    heading = pending === undefined || pending === "0" ? "Your review week is arranged." : `Your review week is partly arranged: ${pending} review task(s) are still pending.`;
  }
  // Anything short of "completed" is never told as a full success.
  if (outcome !== "completed" && (heading === "Your review week is arranged." || heading === "Placed what you asked for.")) heading = `Finished ${done} of ${steps.length} steps (${outcome}).`;
  const lines = [heading, ...steps.map((step) => `- [${step.status}] ${step.content}${step.summary ? ` — ${step.summary}` : ""}`), ...(input.stillPending ?? [])];
  if (note) lines.push(`Note: ${note}`);
  return lines.join("\n");
}
