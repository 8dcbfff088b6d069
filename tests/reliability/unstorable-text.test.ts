/**
 * Text PostgreSQL cannot store — a NUL (`\u0000`) or a lone surrogate (`\ud800`, `\udc00`) — in what a model sends
 * (issue 44.4): every tool of every domain refuses it in its argument check, in a value, a nested value or a key,
 * with an error the model can act on and the data unchanged; a call of the agent's own tools, or of a tool name
 * holding it, is refused the same way before it runs; the thread goes on. And in what a caller sends: a configurable
 * string holding it is refused with INVALID_INPUT before the run starts. (Through Postgres:
 * tests/persistence/unstorable-tool-arguments.test.ts; messages, answers and ids: hostile-input.test.ts.)
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { decisionFromToolCalls, ExecuteDecisionSchema } from "../../contracts/execute.js";
import { parseContract } from "../../contracts/parse-contract.js";
import { storableCopy, unstorableTextIn } from "../../contracts/storable-text.js";
import { DOMAIN_PLUGINS } from "../../tools/registry.js";
import { checkToolArguments, runTool } from "../../tools/runner.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, stepsOf, threadConfig } from "../support/scripted.js";
import { thrownBy } from "./support/thread-state.js";

const NUL = "\u0000";
const LONE_HIGH = "\ud800";
const LONE_LOW = "\udc00";

describe("finding unstorable text", () => {
  test("in a value, a nested value or a key, in document order; paired surrogates (emoji) and CJK are fine", () => {
    expect(unstorableTextIn({ title: "安排复习 📚", tags: ["ok"] })).toBeUndefined();
    expect(unstorableTextIn(`a${NUL}`)).toEqual({ where: "(the value)", problem: "a NUL character (\\u0000)" });
    expect(unstorableTextIn({ a: "fine", b: { list: ["ok", `x${LONE_LOW}`] }, c: `${NUL}` })).toEqual({
      where: "b.list[1]",
      problem: "an unpaired UTF-16 surrogate",
    });
    expect(unstorableTextIn({ nested: { [`k${NUL}`]: 1 } })).toEqual({
      where: "nested.k\\u0000 (a key)",
      problem: "a NUL character (\\u0000)",
    });
    // A cycle or a very deep value is refused as too deep, never a stack overflow.
    let deep: unknown = "bottom";
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(unstorableTextIn(deep)?.problem).toBe("values nested more than 64 levels deep");
    // Nor a very wide one: a list of 200,000 items was spread into one call, more arguments than a call takes.
    const wide = Array.from({ length: 200_000 }, () => "ok");
    expect(unstorableTextIn(wide)).toBeUndefined();
    wide.push(`late${NUL}`);
    expect(unstorableTextIn({ wide })).toEqual({ where: "wide[200000]", problem: "a NUL character (\\u0000)" });
  });

  test("a storable copy replaces each NUL and lone surrogate with U+FFFD; a clean value is returned as it is", () => {
    const clean = { title: "ok 📚" };
    expect(storableCopy(clean)).toBe(clean);
    expect(storableCopy({ [`k${NUL}`]: [`a${LONE_HIGH}b`, 3] })).toEqual({ "k\ufffd": ["a\ufffdb", 3] });
  });
});

describe("every tool of every domain refuses it in its argument check", () => {
  const hostile: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "a NUL in a value",
      { name: `Call${NUL} mom`, title: `Call${NUL} mom`, id: `x${NUL}` },
      /: (name|title|id): holds a NUL character \(\\u0000\), which cannot be stored; call again with the text without it$/,
    ],
    [
      "a lone surrogate in a nested value",
      { placements: [{ task_id: `a${LONE_HIGH}` }] },
      /: placements\[0\]\.task_id: holds an unpaired UTF-16 surrogate, which cannot be stored/,
    ],
    ["a NUL in a key", { [`note${NUL}`]: 1 }, /: note\\u0000 \(a key\): holds a NUL character/],
  ];
  for (const plugin of DOMAIN_PLUGINS) {
    test(`${plugin.name}: every tool, a NUL or a lone surrogate anywhere in its arguments is an error result; nothing changes`, async () => {
      const { domain } = await plugin.build({ sampleData: true });
      const before = structuredClone(await domain.load("student"));
      for (const tool of domain.tools) {
        for (const [label, args, expected] of hostile) {
          const checked = checkToolArguments(tool, args);
          expect(checked.ok, `${tool.name}: ${label}`).toBe(false);
          expect(checked.ok ? "" : checked.problem, `${tool.name}: ${label}`).toMatch(
            new RegExp(`^invalid arguments for ${tool.name}${expected.source}`),
          );
          const outcome = await runTool(
            domain,
            { userId: "student", threadId: "t", stepId: null },
            { id: `c-${tool.name}`, name: tool.name, arguments: args },
          );
          expect(outcome, `${tool.name}: ${label}`).toMatchObject({
            ok: false,
            applied: false,
            content: expect.stringMatching(/^Error: invalid arguments for/),
          });
          // The message says where and what, escaped: it holds no unstorable text itself.
          expect(unstorableTextIn(outcome.content)).toBeUndefined();
        }
      }
      expect(await domain.load("student")).toEqual(before);
    });
  }
});

describe("a model's huge argument is a tool error, never a thrown RangeError", () => {
  for (const plugin of DOMAIN_PLUGINS) {
    test(`${plugin.name}: every tool, a list of 200,000 items as its first argument is an error result; nothing changes`, async () => {
      const { domain } = await plugin.build({ sampleData: true });
      const before = structuredClone(await domain.load("student"));
      const huge = Array.from({ length: 200_000 }, (_, index) => index);
      for (const tool of domain.tools) {
        const [first] = Object.keys((tool.schema as unknown as { shape?: object }).shape ?? {});
        // A tool of no arguments (get_overview) drops a key it does not know: nothing to send the list in.
        if (first === undefined) continue;
        const outcome = await runTool(
          domain,
          { userId: "student", threadId: "t", stepId: null },
          { id: `huge-${tool.name}`, name: tool.name, arguments: { [first]: huge } },
        );
        expect(outcome, `${tool.name}.${first}`).toMatchObject({
          ok: false,
          applied: false,
          content: expect.stringMatching(/^Error: invalid arguments for/),
        });
      }
      expect(await domain.load("student")).toEqual(before);
    });
  }
});

describe("through the graph, the model's calls", () => {
  let callCount = 0;
  const calling = (name: string, args: Record<string, unknown>) =>
    new AIMessage({ content: "", tool_calls: [{ id: `call-${(callCount += 1)}`, name, args, type: "tool_call" }] });

  test("the agent's own tool and a tool name holding such text are refused as tool errors; the model calls again, the write applies", async () => {
    const domain = createNotesDomain({ "user-1": ["buy milk"] });
    const { graph } = scriptedGraph({
      domain,
      toolCalling: "native",
      settings: { replanAfterStep: "never" },
      plan: [planDone(stepsOf("Add the note"), { speak: "One step.", complexity: "simple" })],
      execute: [
        calling("update_working_memory", { content: `notes${NUL}` }),
        calling(`add_note${LONE_HIGH}`, { text: "call mom" }),
        // A clean call between: three tool errors in a row would fail the step.
        calling("list_notes", {}),
        calling("add_note", { text: `call${NUL} mom` }),
        calling("add_note", { text: "call mom" }),
        calling("done", { goal_check: "the note is listed" }),
      ],
    });
    const config = threadConfig("unstorable-calls");
    await graph.invoke({ messages: [new HumanMessage("Add a note: call mom")] }, config);
    let result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config); // the plan
    expect(
      (interruptsOf(result)[0]?.value as { action_requests: Array<{ args: unknown }> }).action_requests.map(
        (request) => request.args,
      ),
    ).toEqual([{ text: "call mom" }]);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
    const results = result.messages
      .filter((message: BaseMessage) => message.getType() === "tool")
      .map((message: BaseMessage) => String((message as ToolMessage).content));
    expect(results.slice(0, 4)).toEqual([
      "Error: invalid call of update_working_memory: arguments.content: holds a NUL character (\\u0000), which cannot be stored; call again with the text without it. Nothing was run.",
      "Error: invalid call of add_note\\ud800: name: holds an unpaired UTF-16 surrogate, which cannot be stored; call again with the text without it. Nothing was run.",
      expect.stringContaining("buy milk"),
      expect.stringMatching(
        /^Error: invalid arguments for add_note: text: holds a NUL character \(\\u0000\), which cannot be stored/,
      ),
    ]);
  });
});

describe("the execute decision's own text", () => {
  test("speak, reason, goal_check or answer holding such text is an output to correct, as JSON and as a native control call", () => {
    expect(parseContract(ExecuteDecisionSchema, { action: "done", goal_check: `met${NUL}` })).toEqual({
      ok: false,
      problem:
        "the JSON did not match the contract (goal_check: holds a NUL character (\\u0000), which cannot be stored; write it without)",
    });
    expect(
      decisionFromToolCalls("", [{ name: "done", args: { goal_check: "met", answer: `Done ${LONE_LOW}` } }]),
    ).toEqual({
      ok: false,
      problem: "the decision's answer holds an unpaired UTF-16 surrogate, which cannot be stored; write it without",
    });
    // A tool call's arguments are the tool's to refuse, as that call's error.
    expect(decisionFromToolCalls("", [{ name: "add_note", args: { text: `x${NUL}` } }]).ok).toBe(true);
  });
});

describe("what a caller sends", () => {
  test("a configurable string holding such text is refused with INVALID_INPUT; nothing is created", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [json({ intent: "chat", reply: "hi", reason: "small talk" })],
    });
    // (A known setting holding it, `time_zone`, is refused by the configuration's own check: INVALID_CONFIGURATION.)
    for (const [key, value] of [
      ["client_note", `x${LONE_HIGH}`],
      ["client_tag", `a${NUL}b`],
    ] as const) {
      const config = { configurable: { thread_id: "configurable-text", user_id: "user-1", [key]: value } };
      const error = await thrownBy(graph.invoke({ messages: [new HumanMessage("hello")] }, config));
      expect(error).toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(new RegExp(`at configurable\\.${key}`)),
      });
    }
    expect((await graph.getState(threadConfig("configurable-text"))).createdAt).toBeUndefined();
  });
});
