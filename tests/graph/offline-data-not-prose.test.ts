/**
 * Issue 28 item 4: the schedule's offline policy reads the tools' structured results (the tool messages' artifact
 * data and recorded outcome), not their prose. Conversations of every kind the policy handles run twice through the
 * graph: with the policy as it is, and with a policy that sees every tool result's text — and the live state's
 * overview in the prompt — replaced by words nothing can parse (the artifact, and the data kept beside the live
 * state, intact). Each prompt gets the same decision either way, so the conversations end the
 * same; and without the data the hidden text would not do, so the data is what the decisions come from.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { calendarImportMessage } from "../../contracts/attached-calendar.js";
import { CONTEXT_DATA_KEY } from "../../contracts/message-text.js";
import type { ChatResult } from "@langchain/core/outputs";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { toolResultData } from "../../kernel/tool-results.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { decide, ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import {
  CHINESE_NAMES,
  converse,
  halfPlacedWeek,
  offlineTempo,
  SAMPLE_WEEK_EVE,
} from "./support/offline-conversation.js";

const HIDDEN = "(this tool result's text is hidden from the policy)";

/**
 * The prompt with every tool result that carries data shown as HIDDEN, and the live state's overview too (their
 * artifact and the context message's data kept, or dropped with `dropData`).
 */
function hideText(messages: BaseMessage[], dropData = false): BaseMessage[] {
  return messages.map((message) => {
    const content = typeof message.content === "string" ? message.content : "";
    if (
      message.getType() === "human" &&
      message.additional_kwargs?.[CONTEXT_DATA_KEY] !== undefined &&
      content.includes("<live_state>")
    ) {
      const hidden = content.replace(
        /<live_state>\n[\s\S]*?\n<\/live_state>/,
        `<live_state>\n${HIDDEN}\n</live_state>`,
      );
      return new HumanMessage({ content: hidden, additional_kwargs: dropData ? {} : message.additional_kwargs });
    }
    if (message.getType() !== "tool" || toolResultData(message) === undefined) return message;
    const tool = message as ToolMessage;
    const artifact = tool.artifact as { outcome: string; data?: unknown };
    return new ToolMessage({
      id: tool.id,
      content: HIDDEN,
      tool_call_id: tool.tool_call_id,
      name: tool.name,
      status: tool.status,
      artifact: dropData ? { outcome: artifact.outcome } : artifact,
    });
  });
}

/** What the blindfolded policy saw. */
interface Seen {
  /** Prompts that held at least one hidden tool result. */
  prompts: number;
  /** Tools whose results were hidden. */
  tools: Set<string>;
  /** Prompts whose decision differed between the real and the hidden text (must stay empty). */
  differing: string[];
  /** Prompts whose decision changed once the data was dropped too. */
  neededData: number;
}

/** The offline policy, answering every prompt from the prompt with the tools' text hidden; checks each against the real one. */
class BlindfoldedPolicy extends ScheduleOfflinePolicy {
  constructor(readonly seen: Seen) {
    super();
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const hidden = hideText(messages);
    const text = decide(hidden);
    const tools = messages
      .filter((message, index) => message !== hidden[index])
      .map((message) => (message.getType() === "human" ? "live_state" : String((message as ToolMessage).name)));
    if (tools.length > 0) {
      this.seen.prompts += 1;
      for (const tool of tools) this.seen.tools.add(tool);
      if (decide(messages) !== text) this.seen.differing.push(text);
      if (decide(hideText(messages, true)) !== text) this.seen.neededData += 1;
    }
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

async function blindfoldedTempo(week: ScheduleState, seen: Seen) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", week);
  const graph = buildTempoGraph({
    models: { default: new BlindfoldedPolicy(seen) },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
  });
  return { graph, repository };
}

const accept = { type: "accept", args: null };
const respond = (text: string) => ({ type: "response", args: text });
const edit = (action: string, args: Record<string, unknown>) => ({ type: "edit", args: { action, args } });

/** Requests of every kind, with the card answers they get. */
const CONVERSATIONS: Array<{ request: string; answers?: Array<{ type: string; args: unknown }>; chinese?: boolean }> = [
  { request: "arrange my reviews into free slots", answers: [accept, respond("not Monday")] },
  { request: "Arrange my reviews", answers: [accept, respond("later in the day please")] },
  { request: "Arrange my reviews", answers: [accept, respond("skip this one")] },
  { request: "Move my matrix review to Thursday", answers: [accept, respond("Friday instead")] },
  { request: "Move the limits review to the evening" },
  // An edited write voids the proposal's ending: the step reads the write's applied result to finish.
  {
    request: "Move my matrix review to Thursday",
    answers: [accept, edit("move", { task_id: "matrix-review", day: 4, slot_start: 11 })],
  },
  { request: "unplace the vocabulary list", answers: [accept, edit("unplace", { task_id: "essay-draft" })] },
  {
    request: "Swap review-limits and matrix-review",
    answers: [accept, edit("swap", { first_task_id: "matrix-review", second_task_id: "review-limits" })],
  },
  { request: "Swap review-limits and matrix-review" },
  { request: "unplace the vocabulary list" },
  { request: "Schedule the linked list exercises on Friday evening" },
  { request: "When am I free on Saturday afternoon?" },
  { request: "what's on Tuesday?" },
  { request: "Which tasks are still pending?" },
  { request: "show me the placed tasks" },
  { request: "explain the essay draft" },
  { request: "explain the self-study hall" },
  { request: "帮我把复习安排到下周的空闲时间", answers: [accept, respond("不要周一")], chinese: true },
  { request: "第2天有什么安排", chinese: true },
  { request: "解释一下英语作文", chinese: true },
];

describe("the offline policy decides from tool data, not tool text", () => {
  test.each(CONVERSATIONS)(
    "$request: the same conversation with every tool result's text hidden",
    async ({ request, answers = [], chinese = false }) => {
      const seen: Seen = { prompts: 0, tools: new Set(), differing: [], neededData: 0 };
      const real = await converse(await offlineTempo(halfPlacedWeek({ chinese })), request, answers, "real");
      const blind = await converse(
        await blindfoldedTempo(halfPlacedWeek({ chinese }), seen),
        request,
        answers,
        "blind",
      );
      expect(seen.differing).toEqual([]);
      expect(blind).toEqual(real);
      // The conversation did read tools, and their data decided something the hidden text alone could not.
      expect(seen.prompts).toBeGreaterThan(0);
      expect(seen.neededData).toBeGreaterThan(0);
    },
  );

  test("together the conversations hide the results of the read tools the steps call (the overview comes in the live state) and of every write", async () => {
    const seen: Seen = { prompts: 0, tools: new Set(), differing: [], neededData: 0 };
    for (const { request, answers = [], chinese = false } of CONVERSATIONS)
      await converse(await blindfoldedTempo(halfPlacedWeek({ chinese }), seen), request, answers);
    expect(seen.differing).toEqual([]);
    expect([...seen.tools].sort()).toEqual(
      expect.arrayContaining([
        "find_free",
        "get_task_info",
        "list_tasks",
        "live_state",
        "move",
        "place",
        "query_range",
        "swap",
        "unplace",
      ]),
    );
  });
});

/**
 * The prompt with the tools' words gone: every tool result's text, the live state's text and the result part of every
 * compressed round's summary line read "x" (artifacts, outcomes and the context data kept).
 */
function rewordResults(messages: BaseMessage[]): BaseMessage[] {
  return hideText(messages).map((message) => {
    if (message.getType() === "tool") {
      const tool = message as ToolMessage;
      return new ToolMessage({ ...tool, id: tool.id, content: "x", tool_call_id: tool.tool_call_id });
    }
    const content = typeof message.content === "string" ? message.content : "";
    if (message.getType() !== "human") return message;
    const reworded = content.replaceAll(HIDDEN, "x").replace(/^(- called \S+ .*?) → .*$/gm, "$1 → x");
    return reworded === content ? message : new HumanMessage({ ...message, content: reworded });
  });
}

/** The offline policy deciding from prompts whose tool results are all worded "x". */
class RewordedPolicy extends ScheduleOfflinePolicy {
  prompts = 0;

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const reworded = rewordResults(messages);
    if (reworded.some((message, index) => message !== messages[index])) this.prompts += 1;
    const text = decide(reworded);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

/** A calendar file of one seminar on the sample week's Saturday evening (a free time). */
const SEMINAR_ICS = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//Tempo tests//EN",
  "BEGIN:VEVENT",
  "UID:seminar-1@tempo.test",
  "DTSTAMP:20240301T000000Z",
  "DTSTART:20240316T120000Z",
  "DTEND:20240316T130000Z",
  "SUMMARY:Research seminar",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

/** Chinese names on the sample week's review tasks. */
function chineseWeek(): ScheduleState {
  const week = sampleWeek();
  week.tasks = week.tasks.map((task) =>
    task.source === "task_item" ? { ...task, name: CHINESE_NAMES[task.id] ?? task.name } : task,
  );
  return week;
}

describe("the policy does not depend on the tools' wording", () => {
  test.each([
    { request: "Help me arrange next week's review sessions.", week: sampleWeek },
    { request: "帮我安排下周的复习", week: chineseWeek },
    { request: "make calculus mornings only", week: sampleWeek },
    { request: "微积分只在上午", week: sampleWeek },
    {
      request: "给微积分添加任务“积分复习”，2节",
      week: sampleWeek,
      answers: [accept, edit("add_task", { name: "积分复习", class_id: "calculus", duration: 3 })],
    },
    { request: calendarImportMessage("seminar.ics", SEMINAR_ICS), week: sampleWeek },
  ])(
    '$request: with every tool result worded "x", the same week and the same answer',
    async ({ request, week, answers = [] }) => {
      // The eve of the sample week: the clock, a hard rule, leaves the whole week ahead.
      const now = () => SAMPLE_WEEK_EVE;
      const real = await converse(await offlineTempo(week(), now), request, answers, "real");
      const policy = new RewordedPolicy();
      const reworded = await converse(await offlineTempo(week(), now, { policy }), request, answers, "reworded");
      expect(policy.prompts).toBeGreaterThan(0);
      expect(real.cards.length).toBeGreaterThan(1);
      expect(reworded.schedule).toEqual(real.schedule);
      expect(reworded).toEqual(real);
    },
  );

  test("a task added to a class through an edited card is told in Chinese from the write's data", async () => {
    const outcome = await converse(await offlineTempo(sampleWeek()), "给微积分添加任务“积分复习”，2节", [
      accept,
      edit("add_task", { name: "积分复习", class_id: "calculus", duration: 3 }),
    ]);
    expect(outcome.schedule.tasks.find((task) => task.name === "积分复习")).toMatchObject({ duration: 3 });
    expect(outcome.finalAnswer?.split("\n")[0]).toBe("完成：已在课程 calculus 中添加任务“积分复习”。");
  });
});
