/**
 * The chat loop in-process, on a scripted graph (notes domain): a question
 * answered, the plan edited step by step, a write accepted, the summary
 * delivered, /state — typed ahead as a pipe would, then the input ends.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import { expect, test } from "vitest";
import { LineReader } from "../../cli/line-reader.js";
import { ChatSession } from "../../cli/session.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, scriptedGraph } from "../support/scripted.js";

test("question, plan edit, write accepted, delivered, /state; the input ends and the thread is done", async () => {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  const { graph, models } = scriptedGraph({
    domain,
    plan: [
      json({ speak: "What should the note say?", action: "ask_user", reason: "no text given" }),
      json({
        speak: "One step.",
        action: "plan_done",
        reason: "clear",
        complexity: "simple",
        plan_steps: [{ content: "Add the note", done_when: "it is listed" }],
      }),
    ],
    execute: [
      json({
        speak: "Reading notes.",
        action: "continue",
        reason: "need the list",
        tool_call: { name: "list_notes", arguments: {} },
      }),
      json({
        speak: "Adding it.",
        action: "confirm",
        reason: "the user asked",
        tool_call: { name: "add_note", arguments: { text: "call mom" } },
      }),
      json({ speak: "", action: "done", reason: "added", goal_check: "add_note returned added note 2: call mom" }),
    ],
    deliver: ["Added “call mom”."],
  });
  const directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-session-"));
  try {
    const registry = new ThreadRegistry(path.join(directory, "threads.json"));
    let output = "";
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
    const stdin = new PassThrough();
    const lines = createInterface({ input: stdin, output: sink, terminal: false });
    const input = new LineReader(lines, true, (text) => (output += text));
    stdin.end(
      [
        "Add a note",
        "call mom",
        "e",
        "Add “call mom” to the notes | list_notes shows it",
        "",
        "maybe",
        "a",
        "/state",
        "",
      ].join("\n"),
    );

    await new ChatSession({
      graph,
      userId: "user-1",
      threadId: "session-1",
      registry,
      input,
      write: (text) => (output += text),
      // The debug view: this test reads the card's arguments and the tool lines as the tools write them.
      verbose: true,
    }).run();

    // The question, answered with free text.
    expect(output).toContain("┌─ Question\n│ What should the note say?\n└─ type your answer\nanswer> call mom\n");
    // The plan card, edited step by step.
    expect(output).toContain("┌─ Plan\n│ Plan for: Add a note\n│ 1. Add the note\n│    done when: it is listed\n");
    expect(output).toContain("choice> e\nEnter the plan, one step a line");
    expect(output).toContain("step 1> Add “call mom” to the notes | list_notes shows it\nstep 2> \n");
    // The write card with where execution stands; an answer it does not take; accepted.
    expect(output).toContain(
      '┌─ Confirm write: add_note\n│ add_note {"text":"call mom"}\n│ Why: the user asked\n│ Step 1 of 1: Add “call mom” to the notes\n│ arguments: {"text":"call mom"}',
    );
    expect(output).toContain(
      "choice> maybe\nAnswer with a approve / e edit the arguments / r reject with feedback / i ignore (reject without) (or a /command).\nchoice> a\n",
    );
    expect(output).toContain("  ← added note 2: call mom\n");
    expect(output).toContain("tempo> Added “call mom”.\nyou> /state\n");
    expect(output).toContain("status:  completed");
    expect(output).toContain("  1. [done] Add “call mom” to the notes");
    expect(output).toContain("asked:   What should the note say? → call mom");
    expect(output).not.toContain("waits for your answer");

    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
    expect(models.execute.callCount).toBe(3);
    expect(await registry.find("session-1")).toMatchObject({
      userId: "user-1",
      lastMessage: "Add a note",
      waitingFor: null,
    });
  } finally {
    await fs.rm(directory, { recursive: true, force: true });
  }
});
