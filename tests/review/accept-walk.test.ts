/**
 * The walk of an answer (docs/design.md#the-walk-of-an-answer), held: one served Agent Inbox Accept of one write of
 * a batch, measured by V8's precise coverage as `npx tsx scripts/walk.ts` measures it, crosses no file it does not
 * need (issue 45 item 2).
 */
import { describe, expect, test } from "vitest";
import { walkAccept } from "../../scripts/walk-scenario.js";

describe("the walk of an Accept", () => {
  test("an Accept crosses no memory, preference or feedback code: nothing was said to read", async () => {
    const { acceptFiles, own } = await walkAccept();
    // The walk ran: the answer's own path holds the review room and the applied write.
    expect(own).toEqual(expect.arrayContaining(["review/resume.ts", "review/apply.ts", "nodes/confirm/index.ts"]));
    // Reading preferences from rejection feedback is confirm's step for a rejection only.
    expect(acceptFiles.filter((file) => /preference|^memory\//.test(file))).toEqual([]);
  });
});
