/**
 * The walk of an answer (docs/design.md#the-walk-of-an-answer), held: one served Agent Inbox Accept of one write of
 * a batch, measured by V8's precise coverage as `npx tsx scripts/walk.ts` measures it, crosses no file it does not
 * need (issue 45 item 2), and at most 20 files in 6 folders of its own, less the applied tool's domain.
 */
import { describe, expect, test } from "vitest";
import { walkAccept } from "../../scripts/walk-scenario.js";

/** The one walk the tests below read (a walk runs three threads through the served graph). */
let walked: ReturnType<typeof walkAccept> | undefined;
const walk = () => (walked ??= walkAccept());

describe("the walk of an Accept", () => {
  test("an Accept crosses no memory, preference or feedback code: nothing was said to read", async () => {
    const { acceptFiles, own } = await walk();
    // The walk ran: the answer's own path holds the review room and the applied write.
    expect(own).toEqual(expect.arrayContaining(["review/resume.ts", "review/apply.ts", "nodes/confirm/index.ts"]));
    // Reading preferences from rejection feedback is confirm's step for a rejection only.
    expect(acceptFiles.filter((file) => /preference|^memory\//.test(file))).toEqual([]);
  });

  test("the answered card is not built again: its answer is read against the card as raised; the next card is built", async () => {
    const { acceptFunctions } = await walk();
    // The next card, for the write the Accept left, is built and raised.
    expect(acceptFunctions).toContain("review/interrupt-cards.ts#toolInterrupt");
    // The answered batch card is not: admission read the answer against the card the thread waits on (only what is
    // read of it parsed), and the node against its outline.
    expect(acceptFunctions).not.toContain("review/interrupt-cards.ts#batchInterrupt");
    expect(acceptFunctions).not.toContain("contracts/cards.ts#asCard");
    // A tool's edit form is made once (the first card of the tool, before the walk), not on every card.
    expect(acceptFunctions).not.toContain("tools/langchain-tools.ts#argumentsSchema");
  });

  test("the answer's own path, less the applied tool's domain, is at most 20 files in at most 6 folders", async () => {
    const { own } = await walk();
    const path = own.filter((file) => !/^tools[/\\][^/\\]+[/\\]/.test(file));
    expect(path.length).toBeLessThanOrEqual(20);
    expect(new Set(path.map((file) => file.slice(0, file.lastIndexOf("/")))).size).toBeLessThanOrEqual(6);
  });
});
