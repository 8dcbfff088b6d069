/**
 * Tool domains as plug-ins: `TEMPO_DOMAINS` picks which registered plug-ins a runtime serves (the composition root
 * names none); several served together are one domain to the graph — each tool on its own domain's state, each write
 * persisted by its own domain — and a scripted model's requests show both domains' tools. Bad settings are clear
 * ConfigurationErrors.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { createTempoDependencies } from "../../server/create-tempo.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { combineDomains } from "../../tools/combined-domain.js";
import type { DomainPlugin } from "../../tools/plugin.js";
import { DOMAIN_PLUGINS, pluginsNamed } from "../../tools/registry.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { runTool } from "../../tools/runner.js";
import { schedulePlugin } from "../../tools/schedule/plugin.js";
import type { ScheduleRepository } from "../../tools/schedule/repository.js";
import { createNotesDomain, type NotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, planDone, resume, scripted, threadConfig } from "../support/scripted.js";

/** The notes test domain as a plug-in (what a second domain's folder exports). */
function notesPlugin(): DomainPlugin & { built?: NotesDomain } {
  const plugin: DomainPlugin & { built?: NotesDomain } = {
    name: "notes",
    summary: "a list of short notes",
    async build() {
      plugin.built = createNotesDomain();
      return { domain: plugin.built, repository: plugin.built.data };
    },
  };
  return plugin;
}

const settingsWith = (domains?: string, more: Record<string, string> = {}) =>
  readSettings({ ...(domains === undefined ? {} : { TEMPO_DOMAINS: domains }), ...more });

describe("TEMPO_DOMAINS", () => {
  test("defaults to the schedule; takes a comma list; the registry knows the schedule plug-in", () => {
    expect(settingsWith().domains).toEqual(["schedule"]);
    expect(settingsWith(" schedule , notes ").domains).toEqual(["schedule", "notes"]);
    expect(DOMAIN_PLUGINS.map((plugin) => plugin.name)).toContain("schedule");
  });

  test("an unknown name, a repeat or none at all is a ConfigurationError naming what is known", () => {
    expect(() => pluginsNamed(["schedule", "calendar"])).toThrow(
      /TEMPO_DOMAINS names "calendar", which this build does not have; known domains: schedule/,
    );
    expect(() => pluginsNamed(["schedule", "schedule"])).toThrow(/names "schedule" twice/);
    expect(() => pluginsNamed([])).toThrow(/names no domain/);
    expect(() => pluginsNamed(["schedule"], [])).toThrow(expect.objectContaining({ name: "ConfigurationError" }));
  });
});

describe("served apart and together", () => {
  test("the schedule alone is served as it is, its repository reachable by name", async () => {
    const dependencies = await createTempoDependencies(settingsWith("schedule"));
    expect(dependencies.domain.name).toBe("schedule");
    expect([...dependencies.domains.keys()]).toEqual(["schedule"]);
    const repository = dependencies.domains.get("schedule")!.repository as ScheduleRepository;
    expect((await repository.load("sample-user")).tasks.length).toBeGreaterThan(0);
    expect(dependencies.offline).toBe(true);
  });

  test("notes alone: offline it is a clear error (no policy), with a model key it serves the notes tools only", async () => {
    await expect(
      createTempoDependencies(settingsWith("notes"), { plugins: [schedulePlugin, notesPlugin()] }),
    ).rejects.toThrow(/No served domain \(notes\) has an offline policy/);
    const online = await createTempoDependencies(settingsWith("notes", { OPENAI_API_KEY: "sk-test" }), {
      plugins: [schedulePlugin, notesPlugin()],
    });
    expect(online.domain.tools.map((tool) => tool.name)).toEqual(["list_notes", "add_note", "remove_note"]);
  });

  test("together: one domain to the graph; each write persists in its own domain, once; the model is offered both", async () => {
    const notes = notesPlugin();
    const dependencies = await createTempoDependencies(settingsWith("schedule,notes"), {
      plugins: [schedulePlugin, notes],
    });
    const { domain } = dependencies;
    expect(domain.name).toBe("schedule+notes");
    expect(domain.version).toBe("schedule@schedule-9+notes@1");
    expect(domain.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["place", "find_free", "add_note", "list_notes"]),
    );

    // A notes write through the runner: applied in the notes domain, the schedule untouched; the same id never twice.
    const context = { userId: "both", threadId: "t", stepId: null };
    const log = new MemoryExecutionLog();
    const schedule = dependencies.domains.get("schedule")!.repository as ScheduleRepository;
    const before = await schedule.load("both");
    expect(
      await runTool(domain, context, { id: "call-note", name: "add_note", arguments: { text: "buy milk" } }, log),
    ).toMatchObject({ ok: true, applied: true });
    expect(
      await runTool(domain, context, { id: "call-note", name: "add_note", arguments: { text: "buy milk" } }, log),
    ).toMatchObject({ applied: false });
    expect(notes.built!.data.get("both")).toEqual({ notes: ["buy milk"] });
    expect(await schedule.load("both")).toEqual(before);
    // A schedule write: placed in the schedule, the notes untouched.
    expect(
      await runTool(
        domain,
        context,
        { id: "call-place", name: "place", arguments: { task_id: "review-limits", day: 1, slot_start: 5 } },
        log,
      ),
    ).toMatchObject({ ok: true, applied: true });
    expect((await schedule.load("both")).tasks.find((task) => task.id === "review-limits")).toMatchObject({
      status: "placed",
    });
    expect(notes.built!.applied).toHaveLength(1);
    // Cards name a write in its own domain's words; open items come from every domain.
    expect(
      domain.describeCall!(await domain.load("both"), "place", { task_id: "matrix-review", day: 2, slot_start: 3 }),
    ).toMatch(/^Place "Matrix operations review" on Tue/);
    expect(domain.openItems!(await domain.load("both")).length).toBeGreaterThan(0);

    // Through the graph: the execute model is offered both domains' tools, and a notes write waits on its card.
    const execute = scripted([
      json({
        speak: "Adding it.",
        action: "confirm",
        reason: "asked",
        tool_call: { name: "add_note", arguments: { text: "call mom" } },
      }),
      json({ action: "done", goal_check: "added" }),
    ]);
    const graph = buildTempoGraph({
      models: {
        default: scripted([json({ intent: "task", reply: "", reason: "a write" })]),
        plan: scripted([
          planDone([{ content: "Add the note", done_when: "it is listed" }], {
            speak: "One step.",
            complexity: "simple",
          }),
        ]),
        execute,
        deliver: scripted(["Added."]),
        toolCalling: "json",
      },
      domain,
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig("both-domains", "both");
    await graph.invoke({ messages: [new HumanMessage("Add a note: call mom")] }, config);
    const card = interruptsOf(await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config))[0]!.value as {
      action_requests: Array<{ name: string }>;
    };
    expect(card.action_requests.map((request) => request.name)).toEqual(["add_note"]);
    const prompt = execute.calls[0]!.messages.map((message) => String(message.content)).join("\n");
    for (const tool of ["add_note", "list_notes", "place", "find_free"]) expect(prompt).toContain(tool);
    await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(notes.built!.data.get("both")).toEqual({ notes: ["buy milk", "call mom"] });
  });

  test("two domains with a tool of the same name, or of the same name, are refused at start", () => {
    expect(() => combineDomains([createNotesDomain(), { ...createNotesDomain(), name: "memo" }])).toThrow(
      /The tool "list_notes" is in both the notes and the memo domain/,
    );
    expect(() => combineDomains([createNotesDomain(), createNotesDomain()])).toThrow(
      /Two tool domains are named "notes"/,
    );
  });
});
