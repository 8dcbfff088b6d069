/**
 * The /prefs list in Chinese says where each preference was said in Chinese, from the entry's `from` (before, the
 * English words stored with it: "card feedback on place (thread t-1)"); an entry stored before `from` was kept shows
 * its stored words, and one whose `from` is not well formed is read without it.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import type { Preference } from "../../contracts/preferences.js";
import { renderPreferences, runPreferenceCommand } from "../../memory/preference-commands.js";
import { loadPreferences } from "../../memory/preferences.js";
import { preferencesNamespace } from "../../memory/namespaces.js";

const entry = (id: string, text: string, source: string, from?: Preference["from"]): Preference => ({
  kind: "avoid_day",
  value: 1,
  id,
  text,
  source,
  ...(from ? { from } : {}),
  createdAt: "2026-12-07T08:00:00.000Z",
});

describe("where a preference was said, in the list's language", () => {
  test("a message, a plan card's feedback, a write card's feedback, and an entry stored before", () => {
    const profile = [
      entry("pref-1", "周一从不学习", "stated in a message (thread t-1)", { kind: "message", threadId: "t-1" }),
      entry("pref-2", "周一不要", "card feedback on the plan (thread t-2)", {
        kind: "card_feedback",
        tool: "the plan",
        threadId: "t-2",
      }),
      entry("pref-3", "周一不要", "card feedback on place (thread t-3)", {
        kind: "card_feedback",
        tool: "place",
        threadId: "t-3",
      }),
      entry("pref-4", "周一不要", "card feedback on place (thread t-4)"),
    ];
    expect(renderPreferences(profile, "zh").split("\n").slice(1, 5)).toEqual([
      "1. 周一从不学习 — 在对话 t-1 的消息中说的，2026-12-07 [pref-1]",
      "2. 周一不要 — 对计划卡片的反馈（对话 t-2），2026-12-07 [pref-2]",
      "3. 周一不要 — 对 place 卡片的反馈（对话 t-3），2026-12-07 [pref-3]",
      "4. 周一不要 — card feedback on place (thread t-4)，2026-12-07 [pref-4]",
    ]);
    // English says it from `from` too (the same words for a short thread id), and an entry stored before as stored.
    expect(renderPreferences(profile, "en")).toContain(
      "1. 周一从不学习 — stated in a message (thread t-1), 2026-12-07",
    );
  });

  test("a client's thread id (a UUID) is shown by its first 8 characters, in both languages", () => {
    const uuid = "1f0c2b7e-93aa-4d51-8e2f-0b6c1d2e3f40";
    const profile = [
      entry("pref-1", "never on Monday", `stated in a message (thread ${uuid})`, { kind: "message", threadId: uuid }),
      entry("pref-2", "周一不要", `card feedback on place (thread ${uuid})`, {
        kind: "card_feedback",
        tool: "place",
        threadId: uuid,
      }),
    ];
    expect(renderPreferences(profile, "en").split("\n").slice(1, 3)).toEqual([
      "1. never on Monday — stated in a message (thread 1f0c2b7e…), 2026-12-07 [pref-1]",
      "2. 周一不要 — card feedback on place (thread 1f0c2b7e…), 2026-12-07 [pref-2]",
    ]);
    expect(renderPreferences(profile, "zh").split("\n").slice(1, 3)).toEqual([
      "1. never on Monday — 在对话 1f0c2b7e… 的消息中说的，2026-12-07 [pref-1]",
      "2. 周一不要 — 对 place 卡片的反馈（对话 1f0c2b7e…），2026-12-07 [pref-2]",
    ]);
  });

  test("a stored `from` that is not well formed is left out, the entry kept", async () => {
    const store = new InMemoryStore();
    const stored = { ...entry("pref-9", "never on Monday", "stated in a message (thread t-9)") };
    await store.put(preferencesNamespace("student"), "pref-9", { ...stored, from: { kind: "message" } });
    const [read] = await loadPreferences(store, "student");
    expect(read).toMatchObject({ id: "pref-9", text: "never on Monday" });
    expect(read).not.toHaveProperty("from");
  });
});

describe("a run with no thread (no checkpointer)", () => {
  test("/prefs lists and keeps no list; /forget by number asks for one, by id removes", async () => {
    const store = new InMemoryStore();
    const stored = entry("pref-9", "never on Monday", "stated in a message (thread t-9)");
    await store.put(preferencesNamespace("student"), "pref-9", { ...stored });
    expect(await runPreferenceCommand(store, "student", "", { name: "prefs" }, "en")).toMatch(
      /^Your standing preferences:\n1\. never on Monday/,
    );
    expect(await runPreferenceCommand(store, "student", "", { name: "forget", reference: "1" }, "en")).toMatch(
      /^A number is the one \/prefs shows in this conversation/,
    );
    expect(await runPreferenceCommand(store, "student", "", { name: "forget", reference: "pref-9" }, "en")).toBe(
      'Removed: "never on Monday". The next task no longer keeps to it.',
    );
    expect(await loadPreferences(store, "student")).toEqual([]);
  });
});
