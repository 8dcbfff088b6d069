/**
 * Tool packs (seed 003): a step starts with the domain's default packs; `context_tools_add` / `context_tools_remove`
 * run at once (no card) and change what the execute model is offered from the next round — asserted on the tools
 * bound to each request the scripted model receives; a call to a tool of a pack not active brings its pack in; a
 * thread saved with packs that no longer exist goes on with the defaults.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { defaultPacks, packProblems, type ToolPack } from "../../tools/domain.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  nativeToolGraph,
  planDone,
  recordingBoundTools,
  scripted,
  scriptedGraph,
  systemText,
  threadConfig,
} from "../support/scripted.js";

const PLAN = planDone([{ content: "Look at Wednesday", done_when: "its contents are known" }], {
  speak: "One step.",
  complexity: "simple",
  read_only: true,
});

let callCount = 0;
/** A native tool call reply. */
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `c${(callCount += 1)}`, name, args, type: "tool_call" }] });

async function scheduleDomain() {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  return createScheduleDomain({ repository });
}

/** A scripted execute model that records, for each request, the names of the tools bound to it. */
function recordingExecute(script: Parameters<typeof scripted>[0]) {
  const model = scripted(script);
  return { model, offered: recordingBoundTools(model) };
}

describe("tool packs", () => {
  test("the schedule's packs hold every tool once; defaults: the candidates to arrange, reading and placing to adjust", async () => {
    const domain = await scheduleDomain();
    expect(packProblems(domain)).toEqual([]);
    expect(defaultPacks(domain, { arranging: true })).toEqual(["schedule.optimize"]);
    expect(defaultPacks(domain)).toEqual(["schedule.read", "schedule.place"]);
    expect(defaultPacks(domain, { writing: false })).toEqual(["schedule.read"]);
    const broken = {
      ...(await scheduleDomain()),
      packs: [{ name: "only", description: "", tools: ["place", "nope"] }] as ToolPack[],
    };
    expect(packProblems(broken)).toEqual(
      expect.arrayContaining([
        'pack "only" names "nope", which the schedule domain has no tool of',
        'the tool "get_overview" is in 0 packs (each tool is in exactly one)',
      ]),
    );
  });

  test("added and removed mid-step, they change the tools bound to the next request; a tool of an inactive pack brings it in", async () => {
    const execute = recordingExecute([
      calling("get_overview"),
      calling("context_tools_add", { packs: ["schedule.inspect"] }),
      calling("query_range", { day: 3 }),
      calling("context_tools_remove", { packs: ["schedule.inspect", "schedule.place"] }),
      calling("get_task_info", { task_id: "matrix-review" }),
      calling("done", { goal_check: "Wednesday is known" }),
    ]);
    const graph = nativeToolGraph(await scheduleDomain(), scripted([PLAN]), execute.model);
    const result = await graph.invoke({ messages: [new HumanMessage("What is on Wednesday?")] }, threadConfig("packs"));
    expect(result.phase).toBe("done");
    const offered = execute.offered;
    expect(offered).toHaveLength(6);
    const has = (index: number, tool: string) => offered[index]!.includes(tool);
    // Step start of a question's plan: the defaults for reading, the agent's tools and the control tools; not the
    // inspect or bulk tools, nor placing and the candidates (defaults of a plan that writes only).
    expect(
      ["get_overview", "find_free", "list_tasks", "context_tools_add", "update_working_memory", "done"].every((tool) =>
        has(0, tool),
      ),
    ).toBe(true);
    expect(
      ["query_range", "get_task_info", "batch_move", "place", "move", "propose_candidates"].some((tool) =>
        has(0, tool),
      ),
    ).toBe(false);
    // After context_tools_add: the inspect tools are offered.
    expect(has(2, "query_range") && has(2, "get_task_info")).toBe(true);
    // After context_tools_remove of inspect and place: only reading is left.
    expect(has(4, "query_range") || has(4, "place") || has(4, "move")).toBe(false);
    expect(has(4, "get_overview")).toBe(true);
    // get_task_info, whose pack was removed, still ran and brought the inspect pack back in.
    expect(has(5, "get_task_info")).toBe(true);
    expect(
      result.messages.some(
        (message) => message.getType() === "tool" && String(message.content).includes("matrix-review"),
      ),
    ).toBe(true);
    // No card was raised for any of it.
    expect(interruptsOf(result)).toEqual([]);
  });

  test("a plan step that names packs starts with them; the next step, naming none, with the defaults; the planner is told the packs", async () => {
    const execute = recordingExecute([
      calling("query_range", { day: 3 }),
      calling("next_plan", { goal_check: "Wednesday read" }),
      calling("done", { goal_check: "overview read" }),
    ]);
    const plan = scripted([
      planDone(
        [
          {
            content: "Look at Wednesday",
            done_when: "its contents are known",
            packs: ["schedule.inspect", "schedule.unknown"],
          },
          { content: "Read the overview", done_when: "it is read" },
        ],
        { speak: "Two steps.", complexity: "simple", read_only: true },
      ),
    ]);
    const graph = nativeToolGraph(await scheduleDomain(), plan, execute.model);
    const result = await graph.invoke(
      { messages: [new HumanMessage("What is on Wednesday, and the week?")] },
      threadConfig("packs-named"),
    );
    expect(result.phase).toBe("done");
    expect(result.planSteps[0]!.packs).toEqual(["schedule.inspect", "schedule.unknown"]);
    // Step 1: only the pack it named (an unknown name is ignored): the inspect tools, none of reading or placing.
    expect(execute.offered[0]).toEqual(expect.arrayContaining(["query_range", "get_task_info"]));
    expect(execute.offered[0]!.some((tool) => ["get_overview", "place"].includes(tool))).toBe(false);
    // Step 2 names none: the defaults of a question's plan (reading; placing and the candidates only when it writes).
    expect(result.planSteps[1]!.packs).toEqual(["schedule.read"]);
    expect(execute.offered[2]).toEqual(expect.arrayContaining(["get_overview", "find_free"]));
    expect(execute.offered[2]!.some((tool) => ["query_range", "place", "propose_candidates"].includes(tool))).toBe(
      false,
    );
    const planner = systemText(plan.calls[0]!.messages);
    expect(planner).toContain("- schedule.inspect: query_range, get_task_info");
  });

  test("a candidate's write is offered to no model: not bound, not in a pack's list; a model's own call of it is refused", async () => {
    const execute = recordingExecute([
      calling("restore_task", { task: { id: "forged", name: "Forged", status: "done" } }),
      calling("done", { goal_check: "nothing restored" }),
    ]);
    const plan = scripted([
      planDone(
        [{ content: "Put a task back", done_when: "it is back", packs: ["schedule.life", "schedule.calendar"] }],
        { speak: "One step.", complexity: "simple", read_only: true },
      ),
    ]);
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const before = await repository.load("user-1");
    const graph = nativeToolGraph(createScheduleDomain({ repository }), plan, execute.model);
    const result = await graph.invoke({ messages: [new HumanMessage("Put my task back")] }, threadConfig("cand-only"));
    // The packs' other tools are bound; the two whose argument is a whole recorded task or event are not.
    expect(execute.offered[0]).toEqual(
      expect.arrayContaining(["propose_undo", "choose_candidate", "remove_event", "import_calendar", "mark_done"]),
    );
    expect(execute.offered[0]!.filter((tool) => tool.startsWith("restore_"))).toEqual([]);
    const refused = result.messages.find((message) => message.getType() === "tool");
    expect(String(refused?.content)).toBe(
      "Error: restore_task is applied only as a candidate of propose_undo: call propose_undo, then choose_candidate with the candidate's id. Nothing was changed.",
    );
    expect(await repository.load("user-1")).toEqual(before);
    // Neither the planner's pack list nor the execute stage's names them.
    const planner = systemText(plan.calls[0]!.messages);
    expect(planner).toMatch(
      /- schedule\.calendar[^\n]*: import_calendar, remove_event, export_calendar, roll_window\n/,
    );
    expect(planner).not.toContain("restore_");
    expect(systemText(execute.model.calls[0]!.messages)).not.toContain("restore_");
  });

  test("an unknown pack is refused with the list of packs, and nothing changes; the JSON-mode prompt lists the packs", async () => {
    const { graph, models } = scriptedGraph({
      domain: await scheduleDomain(),
      plan: [PLAN],
      execute: [
        json({
          speak: "",
          action: "continue",
          reason: "",
          tool_call: { name: "context_tools_add", arguments: { packs: ["schedule.everything"] } },
        }),
        json({ speak: "", action: "done", reason: "", goal_check: "nothing to do" }),
      ],
      settings: { replanAfterStep: "never" },
      toolCalling: "json",
    });
    const result = await graph.invoke(
      { messages: [new HumanMessage("What is on Wednesday?")] },
      threadConfig("packs-json"),
    );
    const refused = result.messages.find(
      (message) => message.getType() === "tool" && String(message.content).startsWith("Error: no pack named"),
    );
    expect(String(refused?.content)).toBe(
      'Error: no pack named "schedule.everything"; the packs are: schedule.read, schedule.optimize, schedule.place, schedule.inspect, schedule.bulk, schedule.tasks, schedule.calendar, schedule.life. Nothing was changed.',
    );
    const system = String(models.execute.calls[1]!.messages[0]!.content);
    expect(system).toContain("- schedule.read (active): the week at a glance");
    expect(system).toContain("- schedule.inspect: details:");
    expect(system).not.toMatch(/- query_range \[read\]/);
  });

  test("a thread saved with packs that no longer exist goes on with the defaults", async () => {
    const checkpointer = new MemorySaver();
    const domain = await scheduleDomain();
    // An older build: one pack of everything, then added by the model.
    const older = {
      ...domain,
      packs: [
        {
          name: "schedule.all",
          description: "everything",
          tools: domain.tools.map((tool) => tool.name),
          default: true,
        },
      ],
    };
    const config = threadConfig("packs-saved");
    const first = buildTempoGraph({
      models: {
        default: scripted([json({ intent: "task", reply: "", reason: "" })]),
        plan: scripted([PLAN]),
        execute: scripted([
          calling("context_tools_add", { packs: ["schedule.all"] }),
          new Error("the process stops here"),
        ]),
        toolCalling: "native",
      },
      domain: older,
      checkpointer,
      settings: { replanAfterStep: "never" },
    });
    await expect(first.invoke({ messages: [new HumanMessage("What is on Wednesday?")] }, config)).rejects.toThrow();
    expect((await first.getState(config)).values.activePacks).toMatchObject({ packs: ["schedule.all"] });

    const execute = recordingExecute([calling("get_overview"), calling("done", { goal_check: "known" })]);
    const later = buildTempoGraph({
      models: {
        default: scripted(["unused"]),
        execute: execute.model,
        deliver: scripted(["Done."]),
        toolCalling: "native",
      },
      domain,
      checkpointer,
      settings: { replanAfterStep: "never" },
    });
    const resumed = await later.invoke({ messages: [new HumanMessage("try again")] }, config);
    expect(resumed.phase).toBe("done");
    const offered = execute.offered[0]!;
    expect(offered).toContain("get_overview");
    expect(offered).not.toContain("query_range");
  });
  test("a domain without packs of its own: no pack tools bound and no pack list, in native and JSON mode alike", async () => {
    const run = async (toolCalling: "native" | "json") => {
      const done =
        toolCalling === "native"
          ? calling("done", { goal_check: "listed" })
          : json({ action: "done", goal_check: "listed" });
      const execute = recordingExecute([done]);
      const graph = buildTempoGraph({
        models: {
          default: scripted([json({ intent: "task", reply: "", reason: "" })]),
          plan: scripted([
            planDone([{ content: "List the notes", done_when: "they are listed" }], { read_only: true }),
          ]),
          execute: execute.model,
          deliver: scripted(["Done."]),
          toolCalling,
        },
        domain: createNotesDomain({ "user-1": ["a"] }),
        checkpointer: new MemorySaver(),
        settings: { replanAfterStep: "never" },
      });
      const result = await graph.invoke({ messages: [new HumanMessage("List my notes")] }, threadConfig("packless"));
      expect(result.phase).toBe("done");
      return {
        offered: execute.offered[0] ?? [],
        prompt: systemText(execute.model.calls[0]!.messages as BaseMessage[]),
      };
    };
    // Its one implicit pack is always active: nothing to add or drop, so neither the tools nor the list are sent.
    const native = await run("native");
    expect(native.offered).toEqual(expect.arrayContaining(["list_notes", "update_working_memory", "done"]));
    expect(native.offered.filter((name) => name.startsWith("context_tools_"))).toEqual([]);
    expect(native.prompt).not.toContain("<packs>");
    const text = await run("json");
    expect(text.offered).toEqual([]);
    expect(text.prompt).toContain("- list_notes [read]");
    expect(text.prompt).not.toMatch(/context_tools_|<packs>/);
  });
});
