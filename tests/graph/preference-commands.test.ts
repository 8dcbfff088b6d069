/**
 * `/prefs` and `/forget` in the graph, for every client: the memorize notice tells a person "/prefs lists your
 * preferences", and Agent Chat UI, Studio and `invoke` send that message to the graph, not to the terminal chat. The
 * graph lists the profile, numbered, in the chat's language, and removes the entry named (the next task no longer
 * keeps to it); a wrong use is refused before anything is written; a card that waits is raised again, with the same writes, after the answer.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { messageText } from "../../contracts/message-text.js";
import { isTempoError } from "../../errors/index.js";
import { loadPreferences } from "../../memory/preferences.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, CountingPolicy, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

async function tempoWithMemory() {
  const store = new InMemoryStore();
  return { store, tempo: await offlineTempo(halfPlacedWeek(), undefined, { store }) };
}

describe("/prefs and /forget in the graph", () => {
  test("/prefs lists the preferences said in messages, numbered; /forget 1 removes the first of them", async () => {
    const { store, tempo } = await tempoWithMemory();
    await converse(tempo, "nothing after 9pm", [], "t-1");
    await converse(tempo, "no studying on Saturdays", [], "t-1");
    const profile = await loadPreferences(store, "student");
    expect(profile.map((entry) => entry.text)).toHaveLength(2);

    const listed = await converse(tempo, "/prefs", [], "t-1");
    expect(listed.phase).toBe("chatting");
    expect(listed.cards).toEqual([]);
    const lines = listed.said.at(-1)!.split("\n");
    expect(lines[0]).toBe("Your standing preferences:");
    expect(lines.slice(1, 3)).toEqual(
      profile.map((entry, index) =>
        expect.stringMatching(new RegExp(`^${index + 1}\\. ${entry.text} — .*\\[${entry.id}\\]$`)),
      ),
    );

    const forgot = await converse(tempo, "/forget 1", [], "t-1");
    expect(forgot.said.at(-1)).toBe(`Removed: "${profile[0]!.text}". The next task no longer keeps to it.`);
    expect((await loadPreferences(store, "student")).map((entry) => entry.id)).toEqual([profile[1]!.id]);
    // A number past the list removes nothing and says which numbers there are.
    const missed = await converse(tempo, "/forget 5", [], "t-1");
    expect(missed.said.at(-1)).toContain("give its number (1-1)");
    expect(await loadPreferences(store, "student")).toHaveLength(1);
  });

  test("a Chinese chat gets the list in Chinese; a graph with no store says it keeps none", async () => {
    const { tempo } = await tempoWithMemory();
    await converse(tempo, "周日从不学习", [], "t-zh");
    const listed = await converse(tempo, "/prefs", [], "t-zh");
    expect(listed.said.at(-1)!.split("\n")).toEqual([
      "你的长期偏好：",
      // Where it was said, in Chinese too (it was stored as English words: "stated in a message (thread t-zh)").
      expect.stringMatching(/^1\. 周日从不学习 — 在对话 t-zh 的消息中说的，\d{4}-\d\d-\d\d \[pref-[0-9a-f]+\]$/),
      "",
      "用 /forget <编号或 id> 删除一条。",
    ]);

    const bare = await offlineTempo(halfPlacedWeek());
    const none = await converse(bare, "/prefs", [], "t-bare");
    expect(none.said.at(-1)).toBe("This chat has no memory store, so there are no standing preferences.");
  });

  test("the list as Agent Chat UI draws it (Markdown): the footer a paragraph of its own, not part of the last entry", async () => {
    // A line right under a list item continues that item in Markdown: the browser check saw "1. no studying on
    // Saturdays — … [pref-…] Remove one with /forget <number or id>." drawn as one entry. A blank line ends the list.
    for (const [thread, said, footer] of [
      ["t-md-en", "no studying on Saturdays", "Remove one with /forget <number or id>."],
      ["t-md-zh", "周六从不学习", "用 /forget <编号或 id> 删除一条。"],
    ] as const) {
      const { tempo } = await tempoWithMemory();
      await converse(tempo, said, [], thread);
      const lines = (await converse(tempo, "/prefs", [], thread)).said.at(-1)!.split("\n");
      expect(lines.slice(-3)).toEqual([expect.stringMatching(new RegExp(`^\\d+\\. ${said} — `)), "", footer]);
    }
  });

  test("/prefs and /forget call no model: they answer the same with a model down or a real one", async () => {
    const policy = new CountingPolicy();
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store: new InMemoryStore(), policy });
    await converse(tempo, "no studying on Saturdays", [], "t-calls");
    const before = policy.calls;
    expect(before).toBeGreaterThan(0);
    await converse(tempo, "/prefs", [], "t-calls");
    await converse(tempo, "/forget 1", [], "t-calls");
    expect(policy.calls).toBe(before);
  });

  test("a wrong use is refused with INVALID_INPUT and nothing written to the thread", async () => {
    const { tempo } = await tempoWithMemory();
    await converse(tempo, "nothing after 9pm", [], "t-bad");
    const config = threadConfig("t-bad", "student");
    const before = await tempo.graph.getState(config);
    for (const [text, message] of [
      ["/prefs all", "/prefs takes no argument"],
      ["/forget", "Usage: /forget <number or id>"],
      ["/forget 1 2", "Usage: /forget <number or id>"],
    ] as const) {
      const refused = await tempo.graph.invoke({ messages: [new HumanMessage(text)] }, config).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isTempoError(refused) && refused.code).toBe("INVALID_INPUT");
      expect((refused as Error).message).toContain(message);
    }
    const after = await tempo.graph.getState(config);
    expect(after.values.messages.map(messageText)).toEqual(before.values.messages.map(messageText));
  });

  test("after a task that stopped, /prefs leaves it, as any new message does, and lists", async () => {
    const store = new InMemoryStore();
    // The plan stage's model fails once: the run stops with the task in planning and nothing pending.
    let failed = false;
    class FailingPlan extends ScheduleOfflinePolicy {
      override async _generate(messages: BaseMessage[]) {
        if (!failed && messages.some((message) => messageText(message).includes('<stage name="plan">'))) {
          failed = true;
          throw new Error("the plan model is down");
        }
        return super._generate(messages);
      }
    }
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store, policy: new FailingPlan() });
    await converse(tempo, "no studying on Saturdays", [], "t-stop");
    const config = threadConfig("t-stop", "student");
    await expect(
      tempo.graph.invoke({ messages: [new HumanMessage("move the vocabulary list to Friday")] }, config),
    ).rejects.toThrow();
    expect(failed).toBe(true);
    expect((await tempo.graph.getState(config)).values.phase).toBe("planning");

    const result = await tempo.graph.invoke({ messages: [new HumanMessage("/prefs")] }, config);
    expect(result.phase).toBe("chatting");
    expect(interruptsOf(result)).toEqual([]);
    const said = result.messages.map(messageText);
    expect(said.at(-2)).toMatch(/^Dropped "move the vocabulary list to Friday" \(it had stopped and you moved on/);
    expect(said.at(-1)).toMatch(/^Your standing preferences:\n1\. no studying on Saturdays — /);
  });

  test("while a write card waits, /prefs is answered and the card is raised again, then applies", async () => {
    const { tempo } = await tempoWithMemory();
    await converse(tempo, "no studying on Saturdays", [], "t-card");
    const config = threadConfig("t-card", "student");
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("move the vocabulary list to Friday")] },
      config,
    );
    // The plan card, accepted: the write card waits.
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    const waiting = interruptsOf(result)[0]!.value as { card_id: string; action_requests: Array<{ name: string }> };
    expect(waiting.action_requests[0]!.name).not.toBe("confirm_plan");

    result = await tempo.graph.invoke({ messages: [new HumanMessage("/prefs")] }, config);
    const said = result.messages.map(messageText);
    expect(said.at(-1)).toMatch(/^Your standing preferences:\n1\. no studying on Saturdays — /);
    // The same writes, on a card raised anew (its id is the new wait's interrupt id).
    const again = interruptsOf(result)[0]!.value as typeof waiting;
    expect(again.action_requests).toEqual(waiting.action_requests);

    const before = await tempo.repository.load("student");
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    expect(interruptsOf(result)).toEqual([]);
    const after = await tempo.repository.load("student");
    const moved = after.tasks.filter((task) => placeOf(after, task.id) !== placeOf(before, task.id));
    expect(moved.length).toBeGreaterThan(0);
  });
});
