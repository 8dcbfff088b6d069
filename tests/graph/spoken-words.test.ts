/**
 * What the assistant says while it works (its `speak`: "Marking …", "Removing …", "Reading …", the answer to
 * "explain …") is drawn by every front end as the turn's messages, so it names tasks and events as a person does:
 * by name, never by id, and never by a tool's name or field names. Before, the offline policy said
 * 'Marking task matrix-review "Matrix operations review" done.', 'Removing event fri-calculus-tutorial …', answered
 * "explain" with 'Task binary-tree-review …: - source: task_item - category: data-structures …', and a refusal said
 * "list_tasks shows no event matching …".
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const ACCEPT = { type: "accept", args: null };
const REQUESTS: Array<{
  said: string;
  answers?: Array<{ type: string; args: unknown }>;
  chinese?: boolean;
  /** Said before, on the same thread (its words are checked too). */
  first?: string;
}> = [
  { said: "I did the matrix review" },
  { said: "undo that", first: "I did the matrix review" },
  { said: "swap review-limits and essay-draft" },
  { said: "remove the Friday tutorial" },
  { said: "explain the binary tree review" },
  { said: "explain the self-study hall" },
  { said: "move the calculus lecture to Saturday" },
  { said: "take the vocabulary list off the schedule" },
  { said: "delete the linear algebra lecture", answers: [ACCEPT, { type: "response", args: "the Monday one" }] },
  { said: "解释一下二叉树复习", chinese: true },
  { said: "把英语作文草稿记为已完成", chinese: true },
];

describe("the assistant's words name tasks and events, never their ids or the tools", () => {
  test.each(REQUESTS)("$said", async ({ said, answers = [], chinese = false, first }) => {
    const week = halfPlacedWeek({ chinese });
    // Ids a person could not know: every id with a hyphen (the sample's ids; names have none of these).
    const ids = week.tasks.map((task) => task.id).filter((id) => id.includes("-") && !said.includes(id));
    const tempo = await offlineTempo(week);
    if (first !== undefined) await converse(tempo, first, [], "thread");
    const outcome = await converse(tempo, said, answers, first === undefined ? undefined : "thread");
    const words = [...outcome.said, outcome.finalAnswer ?? ""];
    expect(words.join("\n").length).toBeGreaterThan(0);
    for (const text of words) {
      for (const id of ids) expect(text, text).not.toContain(id);
      expect(text).not.toMatch(/\b(?:list_tasks|find_free|get_task_info|task_item|source:|category:)/);
    }
  });

  test('"explain": the task in a sentence, with its class, length and where it stands', async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    expect((await converse(tempo, "explain the binary tree review")).finalAnswer).toBe(
      '"Binary tree review" is a study task in the class "Data Structures", 1 slot(s), pending: it has no place yet.',
    );
    expect((await converse(tempo, "explain the essay draft", [], "essay")).finalAnswer).toBe(
      '"Draft the English essay" is a study task in the class "English", 2 slot(s), placed on Sat 16 Mar, 08:00–09:40.',
    );
  });
});
