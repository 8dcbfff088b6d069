/**
 * memorize's mark (`memorizedUpTo`) must point at a message that stays. A turn's opener (the progress row Agent Chat
 * UI draws, `openTurn`) is removed when the next turn opens, so a mark on it would be lost and the next memorize would
 * read the thread from its first message again, storing old turns twice.
 */
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import type { TempoState } from "../../kernel/state.js";
import { conversationNamespace } from "../../memory/namespaces.js";
import { createMemorizeNode } from "../../nodes/memorize.js";
import { WriteApprovals } from "../../review/approvals.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { openerId } from "../../streaming/progress-ui.js";
import { createNotesDomain } from "../support/notes-domain.js";

const memorize = createMemorizeNode({
  models: { default: fakeModel() },
  domain: createNotesDomain(),
  settings: DEFAULT_WORKFLOW_SETTINGS,
  workflowVersion: "test",
  executionLog: new MemoryExecutionLog(),
  approvals: new WriteApprovals(),
});

const state = (messages: BaseMessage[], memorizedUpTo: string | null) =>
  ({
    messages,
    memorizedUpTo,
    compressedUpTo: null,
    outcome: null,
    finalAnswer: null,
    workspaceMessageIds: [],
  }) as unknown as TempoState;

describe("memorize's mark", () => {
  test("never rests on a turn's opener, so a turn whose opener is removed later is not memorized twice", async () => {
    const store = new InMemoryStore();
    const config = { store, configurable: { thread_id: "marks", user_id: "user-1" } };
    const first = new HumanMessage({ id: "human-1", content: "remember that my lab is on Thursdays" });
    const firstOpener = new AIMessage({ id: openerId("human-1"), content: "" });
    // A turn that wrote no assistant message: its opener is the thread's last message when memorize runs.
    const marked = await memorize(state([first, firstOpener], null), config);
    expect(marked.memorizedUpTo).toBe("human-1");

    // The next turn opens: the first turn's opener is gone, the new turn has its own and a reply.
    const second = new HumanMessage({ id: "human-2", content: "what is on Friday" });
    const reply = new AIMessage({ id: "ai-2", content: "Nothing yet." });
    const next = [first, second, new AIMessage({ id: openerId("human-2"), content: "" }), reply];
    await memorize(state(next, "human-1"), config);

    const entries = await store.search(conversationNamespace("user-1", "marks"), { limit: 10 });
    const summaries = entries.map((entry) => JSON.stringify(entry.value));
    expect(summaries).toHaveLength(2);
    expect(summaries.filter((summary) => summary.includes("lab is on Thursdays"))).toHaveLength(1);
  });
});
