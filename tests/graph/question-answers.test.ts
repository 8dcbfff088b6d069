/**
 * Issue 27 items 6 and 7, through the whole graph with the offline policy: a question card takes a plain answer
 * in the shape each client sends it (Agent Chat UI, Agent Inbox, a legacy HumanResponse, a chat message while the
 * card is open) and the answer completes the request the question was about — for the planner's question and for
 * the execute stage's. And what Tempo writes follows the user's language (Chinese in, Chinese out; English stays).
 */
import { HumanMessage, AIMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { languageOf } from "../../contracts/language.js";
import { factsInLanguage } from "../../contracts/report-words.js";
import { buildStageMessages } from "../../prompts/stage-messages.js";
import { messageText } from "../../contracts/message-text.js";
import { halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";

type Tempo = Awaited<ReturnType<typeof offlineTempo>>;
interface Shown {
  action: string;
  args: Record<string, unknown>;
  description: string;
}

/** How each client answers a question card with `text`. */
const CLIENTS: Array<[string, (text: string) => unknown]> = [
  [
    "Agent Chat UI",
    (text) => resume({ decisions: [{ type: "edit", edited_action: { name: "ask_user", args: { answer: text } } }] }),
  ],
  ["Agent Inbox", (text) => resume([{ type: "edit", args: { action: "ask_user", args: { answer: text } } }])],
  ["a legacy response", (text) => resume({ type: "response", args: text })],
  ["a chat message while the card is open", (text) => ({ messages: [new HumanMessage(text)] })],
];

function cardOf(result: object): Shown | undefined {
  const value = interruptsOf(result)[0]?.value as
    { action_requests?: Array<{ name: string; args: Record<string, unknown>; description?: string }> } | undefined;
  const request = value?.action_requests?.[0];
  return request ? { action: request.name, args: request.args, description: request.description ?? "" } : undefined;
}

async function start(tempo: Tempo, message: string, thread = `q-${Math.random().toString(36).slice(2)}`) {
  const config = threadConfig(thread, "student");
  const result = await tempo.graph.invoke({ messages: [new HumanMessage(message)] }, config);
  return { config, result };
}

async function send(tempo: Tempo, config: ReturnType<typeof threadConfig>, input: unknown) {
  return tempo.graph.invoke(input as Parameters<Tempo["graph"]["invoke"]>[0], config);
}

const accept = resume({ decisions: [{ type: "approve" }] });

describe("a question card takes a plain answer, in every client's shape", () => {
  describe.each(CLIENTS)("%s", (_client, answer) => {
    test.each(["Friday", "day 5", "周五", "5"])(
      'the planner asked which day; "%s" completes the move: plan card, move card, moved to Friday',
      async (text) => {
        const tempo = await offlineTempo(halfPlacedWeek());
        const { config, result: asked } = await start(tempo, "move the matrix review to day 9");
        expect(cardOf(asked)?.action).toBe("ask_user");
        expect(cardOf(asked)?.description).toContain("Which day do you mean?");

        const planned = await send(tempo, config, answer(text));
        // The card's own words follow the user's newest message that tells a language: "周五" is Chinese.
        const doneWhen = text === "周五" ? "完成标志：" : "done when: ";
        expect(cardOf(planned)).toMatchObject({
          action: "confirm_plan",
          args: { steps: expect.stringContaining(`1. Move "matrix review" to Friday, Mar 15 — ${doneWhen}`) },
        });
        const proposed = await send(tempo, config, accept);
        expect(cardOf(proposed)).toMatchObject({ action: "move", args: { task_id: "matrix-review", day: 5 } });
        const done = await send(tempo, config, accept);
        expect(interruptsOf(done)).toEqual([]);
        expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toMatch(/^day 5 /);
        // The answer's language is the user's latest word: 周五 turns the final answer Chinese.
        // The task by name, the places by date and clock time.
        expect(done.finalAnswer).toMatch(
          text === "周五"
            ? /^完成：已把"Matrix operations review" 从3月12日周二 10:00–11:40移到3月15日周五 /
            : /^Done: moved "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Fri 15 Mar, /,
        );
      },
    );

    test("the planner found no task by that name and asked which; a name answers it, and the move is planned and proposed for that task", async () => {
      const tempo = await offlineTempo(halfPlacedWeek());
      const { config, result: asked } = await start(tempo, "move the zebra thing to Friday");
      // Never a plan for a made-up name: the question comes first, naming the placed tasks.
      expect(cardOf(asked)?.action).toBe("ask_user");
      expect(cardOf(asked)?.description).toMatch(
        /^I found no placed task matching "zebra thing", so I have planned nothing\. Your placed tasks: Review limits and continuity \(review-limits\), Matrix operations review \(matrix-review\), /,
      );

      const planned = await send(tempo, config, answer("matrix review"));
      expect(cardOf(planned)).toMatchObject({
        action: "confirm_plan",
        args: { steps: expect.stringContaining('1. Move "matrix review" to Friday, Mar 15 — ') },
      });
      const proposed = await send(tempo, config, accept);
      expect(cardOf(proposed)).toMatchObject({ action: "move", args: { task_id: "matrix-review", day: 5 } });
      const done = await send(tempo, config, accept);
      expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toMatch(/^day 5 /);
      expect(done.finalAnswer).toMatch(/^Done: moved "Matrix operations review" from Tue 12 Mar/);
    });
  });

  test("a whole new request given as the answer replaces the one asked about", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const { config } = await start(tempo, "move the matrix review to day 9");
    const planned = await send(tempo, config, CLIENTS[0]![1]("move review-limits to Thursday"));
    expect(cardOf(planned)).toMatchObject({
      action: "confirm_plan",
      args: { steps: expect.stringContaining('1. Move "review-limits" to Thursday, Mar 14 — done when: ') },
    });
  });

  test("an answer that names no day is asked about again, quoting it (not the same question word for word)", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const { config, result: first } = await start(tempo, "move the matrix review to day 9");
    const again = await send(tempo, config, CLIENTS[0]![1]("purple"));
    expect(cardOf(again)?.action).toBe("ask_user");
    expect(cardOf(again)?.description).toMatch(/^I could not read a day of your schedule in your answer "purple"\./);
    expect(cardOf(again)?.description).not.toBe(cardOf(first)?.description);
    // The next answer still completes the original request.
    const planned = await send(tempo, config, CLIENTS[1]![1]("Saturday"));
    expect(cardOf(planned)).toMatchObject({
      action: "confirm_plan",
      args: { steps: expect.stringContaining('1. Move "matrix review" to Saturday, Mar 16 — done when: ') },
    });
  });

  test("the planner's question answered with a name that matches nothing is asked again, quoting it; nothing is planned or changed", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const { config } = await start(tempo, "move the zebra thing to Friday");
    const again = await send(tempo, config, CLIENTS[2]![1]("unicorn"));
    expect(cardOf(again)?.action).toBe("ask_user");
    expect(cardOf(again)?.description).toMatch(
      /^I found no placed task matching "unicorn", so I have planned nothing\./,
    );
    expect(again.planSteps).toEqual([]);
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toBe("day 2 slots 3-4");
  });
});

describe("an answer that withdraws the request ends the task instead of asking again", () => {
  describe.each(CLIENTS)("%s", (_client, answer) => {
    test.each([
      ["never mind", 'Dropped "move the matrix review to day 9" (you withdrew it when asked). Nothing was changed.'],
      ["Forget it.", 'Dropped "move the matrix review to day 9" (you withdrew it when asked). Nothing was changed.'],
      ["算了", '已放弃"move the matrix review to day 9"（你在回答问题时撤回了它）。没有做任何改动。'],
    ])('the planner asked which day; "%s" drops the task: no card, nothing changed', async (text, told) => {
      const tempo = await offlineTempo(halfPlacedWeek());
      const { config, result: asked } = await start(tempo, "move the matrix review to day 9");
      expect(cardOf(asked)?.action).toBe("ask_user");
      const ended = await send(tempo, config, answer(text));
      expect(interruptsOf(ended)).toEqual([]);
      expect(ended.phase).toBe("chatting");
      expect(ended.outcome).toEqual({ kind: "dropped", reason: "you withdrew it when asked" });
      expect(messageText(ended.messages.at(-1)!)).toBe(told);
      expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toBe("day 2 slots 3-4");
      // The thread goes on: the next request is planned as usual.
      const next = await send(tempo, config, { messages: [new HumanMessage("move the matrix review to Friday")] });
      expect(cardOf(next)?.action).toBe("confirm_plan");
    });
  });

  test('"no" and "skip" stay answers: the planner reads them and asks again, quoting them', async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const { config } = await start(tempo, "move the matrix review to day 9");
    for (const text of ["no", "skip"]) {
      const again = await send(tempo, config, CLIENTS[0]![1](text));
      expect(cardOf(again)?.action).toBe("ask_user");
      expect(cardOf(again)?.description).toContain(`"${text}"`);
    }
  });

  test.each([
    ["invoke", {}],
    ["a served run (the turn opens with its progress line)", { metadata: { run_id: "run-served" } }],
  ])("withdrawing a later task says only its own writes (none), not an earlier task's: %s", async (_how, served) => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const base = threadConfig(`withdraw-later-${_how.length}`, "student");
    const config = { ...base, ...served };
    const message = (text: string) => ({ messages: [new HumanMessage(text)] });
    await send(tempo, config, message("move the matrix review to Friday"));
    await send(tempo, config, accept);
    const moved = await send(tempo, config, accept);
    expect(interruptsOf(moved)).toEqual([]);
    const asked = await send(tempo, config, message("move the matrix review to day 9"));
    expect(cardOf(asked)?.action).toBe("ask_user");
    const ended = await send(tempo, config, message("never mind"));
    expect(interruptsOf(ended)).toEqual([]);
    expect(messageText(ended.messages.at(-1)!)).toBe(
      'Dropped "move the matrix review to day 9" (you withdrew it when asked). Nothing was changed.',
    );
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toMatch(/^day 5 /);
  });
});

describe("Tempo answers in the user's language", () => {
  test("a Chinese request: the question, the plan step, the plan's words and the final answer are Chinese; the answer 周五 completes it", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const { config, result: asked } = await start(tempo, "把矩阵运算复习移到第9天");
    expect(cardOf(asked)?.description).toMatch(/^你的日程里没有这一天（共 7 天：第1天到第7天）。你指的是哪一天？/);
    const planned = await send(tempo, config, CLIENTS[3]![1]("周五"));
    expect(cardOf(planned)).toMatchObject({
      action: "confirm_plan",
      args: { steps: expect.stringContaining('1. 把 "矩阵运算复习" 移到 3月15日周五 — 完成标志：') },
    });
    expect(
      planned.messages
        .filter((message) => message.getType() === "ai")
        .map(messageText)
        .at(-1),
    ).toBe('计划：把 "矩阵运算复习" 移到 3月15日周五。');
    await send(tempo, config, accept);
    const done = await send(tempo, config, accept);
    expect(done.finalAnswer).toMatch(
      /^完成：已把"矩阵运算复习" 从3月12日周二 10:00–11:40移到3月15日周五 \d\d:\d\d–\d\d:\d\d。$/,
    );
    // Action names and argument keys stay ASCII.
    expect(Object.keys(cardOf(planned)!.args)).toEqual(["steps"]);
  });

  test("a Chinese user's question about a name that matches nothing is Chinese, and an answer typed as an id (ASCII) keeps the reply Chinese", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const { config, result: asked } = await start(tempo, "把斑马任务移到周五");
    expect(cardOf(asked)?.description).toMatch(
      /^我没有找到与 "斑马" 匹配的已安排的任务，所以没有做任何计划。你的已安排的任务：/,
    );
    await send(tempo, config, CLIENTS[1]![1]("matrix-review"));
    await send(tempo, config, accept);
    const done = await send(tempo, config, accept);
    expect(done.finalAnswer).toMatch(/^完成：已把"矩阵运算复习" 从3月12日周二/);
  });

  test("an English request stays English end to end", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const { config, result: asked } = await start(tempo, "move the matrix review to day 9");
    expect(cardOf(asked)?.description).toMatch(/^Your schedule has no such day/);
    await send(tempo, config, CLIENTS[0]![1]("Friday"));
    await send(tempo, config, accept);
    const done = await send(tempo, config, accept);
    expect(done.finalAnswer).toMatch(/^Done: /);
    expect(done.messages.map(messageText).join("\n")).not.toMatch(/[\u3400-\u9fff]/);
  });

  test("languageOf: Chinese characters decide; a short ASCII answer keeps the conversation's language; client bookkeeping is not read", () => {
    expect(languageOf("把矩阵复习移到周五")).toBe("zh");
    expect(languageOf("move it to Friday")).toBe("en");
    expect(
      languageOf([
        new HumanMessage("把矩阵复习移到第9天"),
        new AIMessage("你指的是哪一天？"),
        new HumanMessage("day 5"),
      ]),
    ).toBe("zh");
    expect(
      languageOf([new HumanMessage("把矩阵复习移到第9天"), new HumanMessage("please move the limits review instead")]),
    ).toBe("en");
    expect(
      languageOf([
        new HumanMessage("move the matrix review please"),
        new HumanMessage({ id: "do-not-render-1", content: "好的好的" }),
      ]),
    ).toBe("en");
    expect(languageOf([])).toBe("en");
  });

  test("a real model is told to write in Chinese when the user does, and nothing is added for English", () => {
    const build = (text: string) =>
      messageText(
        buildStageMessages({
          stagePrompt: '<stage name="plan">x</stage>',
          conversation: [new HumanMessage(text)],
          stageState: "",
          instruction: "go",
        })[0],
      );
    expect(build("帮我安排下周的复习")).toContain(
      "The user writes in Chinese. Write everything the user reads in Simplified Chinese",
    );
    expect(build("arrange my reviews for next week")).not.toContain("<language>");
    expect(build("arrange my reviews for next week")).toContain(
      "Write what the user reads in the language the user writes in",
    );
  });

  test("the deliver stage's factual fallback is told in Chinese to a Chinese user, and unchanged in English", () => {
    const factual =
      "Task: 帮我安排复习\nOutcome: partial — 1 of 2 step(s) done\nFinished 1 of 2 steps:\n1. [done] a — b\n2. [skipped] c\nStill pending: 导数练习 (derivative-drills) — no free slot fits\nNote: stopped";
    expect(factsInLanguage(factual, "zh")).toBe(
      "任务：帮我安排复习\n结果：部分完成，未全部完成 — 1 of 2 step(s) done\n完成了 2 个步骤中的 1 个：\n1. [完成] a — b\n2. [跳过] c\n仍未完成：导数练习 (derivative-drills) — no free slot fits\n备注：stopped",
    );
    expect(factsInLanguage(factual, "en")).toBe(factual);
  });
});
