/**
 * Write cards approved after the week changed underneath them, as one student's threads and the daily check-in make it
 * change. First, the week rolled on. A card's days are days of the window it was made on
 * ("Sun 17 Mar, 19:00" is `day: 7`); the check-in (or a request on another thread) the next Monday moves the window on
 * a week, so the same `day: 7` is Sun 24 Mar. Approving the old card must not put the review on a date its card never
 * showed: none of it applies (tests/graph/rolled-under-card.test.ts: a card of several writes), the chat says why with
 * the dates the card showed, nothing is stored, and the step proposes again on the week as it is now — a new card that
 * says why, with the new dates, which applies as it shows. Then a review changed: an undo card
 * (made to move it back from where thread A's change put it) approved after thread B moved it again must not undo B's
 * change too — the undo's own rule ("it has moved since") holds when its card is answered, not only when it is made.
 * And two threads' cards for the same free slot, approved at once: one review gets it, the other card is refused for
 * the overlap, and each thread says which.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { runCheckin } from "../../cli/checkin.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";
import { cardDescriptions } from "./support/card-answers.js";

/** Sunday 17 March 2024, 08:00 in Shanghai: the sample week's last day. */
const SUNDAY = new Date("2024-03-17T08:00:00+08:00");
/** The Monday after, when the check-in rolls the window on to Mon 18 – Sun 24 Mar. */
const MONDAY = new Date("2024-03-18T09:00:00+08:00");

/** The descriptions of the card `result` waits on (first lines), or [] for none. */
function cardLines(result: object): string[] {
  return cardDescriptions(result).map((description) => description.split("\n")[0]!);
}

/** What the assistant said in `result`'s messages from `from` on. */
function saidFrom(result: { messages: Array<{ getType(): string; content: unknown }> }, from: number): string {
  return result.messages
    .slice(from)
    .filter((message) => message.getType() === "ai")
    .map((message) => String(message.content))
    .join("\n");
}

describe("a write card approved after the week rolled on", () => {
  test("is refused with the dates it showed, stores nothing, and is proposed again on the new week", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => SUNDAY);
    const onSunday = { configurable: { ...threadConfig("plans", "student").configurable, now: SUNDAY.toISOString() } };
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("Schedule the linked list exercises on Sunday evening")] },
      onSunday,
    );
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), onSunday);
    expect(cardLines(result)).toEqual(['Place "Linked list exercises" on Sun 17 Mar, 19:00–20:40']);

    // Monday: the check-in rolls the window on while the card waits on its own thread.
    const checkin = await runCheckin(tempo.graph, "student", MONDAY, "Asia/Shanghai");
    expect(checkin.movedOn).toMatch(
      /^A new week: the window moved on by 7 day\(s\) and now runs Mon 18 Mar – Sun 24 Mar/,
    );
    const rolled = await tempo.repository.load("student");
    expect(rolled.window.days.map((day) => day.date)).toEqual([
      "2024-03-18",
      "2024-03-19",
      "2024-03-20",
      "2024-03-21",
      "2024-03-22",
      "2024-03-23",
      "2024-03-24",
    ]);

    // The old card approved on Monday: nothing lands on Sun 24 Mar, and the chat says why, with the card's dates.
    const onMonday = { configurable: { ...onSunday.configurable, now: MONDAY.toISOString() } };
    const before = result.messages.length;
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), onMonday);
    expect(placeOf(await tempo.repository.load("student"), "linked-list-exercises")).toBe("pending");
    expect(saidFrom(result, before)).toContain(
      'Could not apply: Place "Linked list exercises" on Sun 17 Mar, 19:00–20:40 — this card was made on the week of Mon 11 Mar – Sun 17 Mar, and the schedule has moved on to Mon 18 Mar – Sun 24 Mar since, so its days would be other dates now; nothing was changed',
    );
    // The step proposes again on the week as it is now: a card that says why and shows the new dates, and applies them.
    expect(cardDescriptions(result)).toEqual([
      expect.stringMatching(
        /^The schedule has moved on to another week since this card was made, so nothing on it was applied\.\nHere are new ones from now\.\n\nPlace "Linked list exercises" on Sun 24 Mar, 19:00–20:40\n/,
      ),
    ]);
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), onMonday);
    expect(interruptsOf(result)).toEqual([]);
    expect(result.finalAnswer).toContain('"Linked list exercises" — Sun 24 Mar, 19:00–20:40');
    expect(placeOf(await tempo.repository.load("student"), "linked-list-exercises")).toBe("day 7 slots 9-10");
  });

  test("a card approved in the week it was made on applies as it showed", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => SUNDAY);
    const config = { configurable: { ...threadConfig("plans", "student").configurable, now: SUNDAY.toISOString() } };
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("Schedule the linked list exercises on Sunday evening")] },
      config,
    );
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    expect(cardLines(result)).toEqual(['Place "Linked list exercises" on Sun 17 Mar, 19:00–20:40']);
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    expect(result.finalAnswer).toContain('"Linked list exercises" — Sun 17 Mar, 19:00–20:40');
    expect(placeOf(await tempo.repository.load("student"), "linked-list-exercises")).toBe("day 7 slots 9-10");
  });
});

/** Sends `message` on `threadId` and approves its plan card: returns with its write card open. */
async function toWriteCard(tempo: Awaited<ReturnType<typeof offlineTempo>>, threadId: string, message: string) {
  const config = threadConfig(threadId, "student");
  await tempo.graph.invoke({ messages: [new HumanMessage(message)] }, config);
  return tempo.graph.invoke(resume({ type: "accept", args: null }), config);
}

describe("a write card approved after a review it names changed on another thread", () => {
  test("an undo card answered after thread B moved the review again undoes nothing, and says why", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    await converse(tempo, "move the matrix review to Friday", [], "thread-a");
    const undoCard = await toWriteCard(tempo, "thread-a", "undo that");
    expect(cardLines(undoCard)).toEqual([
      'Move "Matrix operations review" from Fri 15 Mar, 19:00–20:40 to Tue 12 Mar, 10:00–11:40',
    ]);
    const onB = await converse(tempo, "move the matrix review to Saturday", [], "thread-b");
    expect(onB.finalAnswer).toBe(
      'Done: moved "Matrix operations review" from Fri 15 Mar, 19:00–20:40 to Sat 16 Mar, 14:55–16:45.',
    );

    const answered = await tempo.graph.invoke(
      resume({ type: "accept", args: null }),
      threadConfig("thread-a", "student"),
    );
    // B's move stays: the undo was made to reverse A's, and the review is no longer where A's change left it.
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toBe("day 6 slots 6-7");
    expect(interruptsOf(answered)).toEqual([]);
    expect(answered.finalAnswer).toContain(
      '"Matrix operations review" has changed since this card was made (it is on Sat 16 Mar, 14:55–16:45 now, by another change), so the card no longer shows what it would do; nothing was changed',
    );
    expect(answered.finalAnswer).not.toMatch(/^Done/);
    // The chat names the undo as its card did: from where A's change had put the review.
    expect(saidFrom(answered, undoCard.messages.length)).toContain(
      'Could not apply: Move "Matrix operations review" from Fri 15 Mar, 19:00–20:40 to Tue 12 Mar, 10:00–11:40 — "Matrix operations review" has changed since this card was made',
    );
  });

  test("in Chinese, the refusal is said in Chinese, naming the undo as its card did", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    await converse(tempo, "把矩阵复习移到周五", [], "thread-a");
    const undoCard = await toWriteCard(tempo, "thread-a", "撤销");
    expect(cardLines(undoCard)).toEqual(['把 "矩阵运算复习" 从 3月15日周五 19:00–20:40 移到 3月12日周二 10:00–11:40']);
    await converse(tempo, "把矩阵复习移到周六", [], "thread-b");
    const answered = await tempo.graph.invoke(
      resume({ type: "accept", args: null }),
      threadConfig("thread-a", "student"),
    );
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toBe("day 6 slots 6-7");
    expect(saidFrom(answered, undoCard.messages.length)).toContain(
      '未能执行：把 "矩阵运算复习" 从 3月15日周五 19:00–20:40 移到 3月12日周二 10:00–11:40 — "矩阵运算复习" 在这张卡片做出之后被另一处修改改变了（现在在 3月16日周六 14:55–16:45），卡片上写的已不是它会做的；没有做任何改动',
    );
    expect(answered.finalAnswer).toBe(
      '日程没有改动："矩阵运算复习" 在这张卡片做出之后被另一处修改改变了（现在在 3月16日周六 14:55–16:45），卡片上写的已不是它会做的；没有做任何改动；要按现在的这一周修改，需要一张新的卡片。',
    );
  });

  test("two threads' cards for one free slot approved at once: one review gets it, the other thread says it did not", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    expect(cardLines(await toWriteCard(tempo, "thread-a", "move vocabulary-list to Saturday slot 7"))).toEqual([
      'Move "Vocabulary list unit 5" from Thu 14 Mar, 08:00–08:45 to Sat 16 Mar, 16:00–16:45',
    ]);
    expect(cardLines(await toWriteCard(tempo, "thread-b", "move essay-draft to Saturday slot 7"))).toEqual([
      'Move "Draft the English essay" from Sat 16 Mar, 08:00–09:40 to Sat 16 Mar, 16:00–17:40',
    ]);
    const answers = await Promise.all(
      ["thread-a", "thread-b"].map((threadId) =>
        tempo.graph.invoke(resume({ type: "accept", args: null }), threadConfig(threadId, "student")),
      ),
    );
    const week = await tempo.repository.load("student");
    const onSaturday = ["vocabulary-list", "essay-draft"].filter((id) => placeOf(week, id).startsWith("day 6 slots 7"));
    expect(onSaturday).toHaveLength(1);
    const [won, lost] = onSaturday[0] === "vocabulary-list" ? answers : [answers[1]!, answers[0]!];
    expect(won!.finalAnswer).toMatch(/^Done: moved /);
    expect(lost!.finalAnswer).toMatch(/^Your schedule is unchanged: cannot move .*overlaps/);
  });
});

describe("a day's card answered after another thread put a review on that day", () => {
  // halfPlacedWeek: on Monday only the limits review (14:00); the binary tree review pending, put on Monday 19:00 by
  // thread B while thread A's card for the day waits.
  test.each([
    ["clear tomorrow", new Date("2024-03-10T20:00:00+08:00"), "Take", "pending"],
    ["skip all my reviews today", new Date("2024-03-11T09:00:00+08:00"), "Skip", "skipped"],
  ] as const)(
    "%s: the day is looked at again and the new review comes on a card of its own",
    async (request, now, verb, after) => {
      const tempo = await offlineTempo(halfPlacedWeek(), () => now);
      const threadA = threadConfig("thread-a", "student");
      await tempo.graph.invoke({ messages: [new HumanMessage(request)] }, threadA);
      let result = await tempo.graph.invoke(resume({ type: "accept", args: null }), threadA);
      expect(cardLines(result)).toEqual([expect.stringMatching(new RegExp(`^${verb} "Review limits and continuity"`))]);

      const onB = await converse(tempo, "put the binary tree review on Monday", [], "thread-b");
      expect(onB.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
      expect(placeOf(await tempo.repository.load("student"), "binary-tree-review")).toBe("day 1 slots 9-9");

      // A's card still applies as it showed; the day is not said to be cleared while the binary tree review is on it.
      const before = result.messages.length;
      result = await tempo.graph.invoke(resume({ type: "accept", args: null }), threadA);
      const week = await tempo.repository.load("student");
      expect(week.tasks.find((task) => task.id === "review-limits")).toMatchObject({ status: after });
      expect(result.finalAnswer ?? null).toBeNull();
      expect(saidFrom(result, before)).toContain("again as it is now");
      expect(cardLines(result)).toEqual([
        expect.stringMatching(new RegExp(`^${verb} "Binary tree review" .*Mon 11 Mar, 19:00`)),
      ]);
      result = await tempo.graph.invoke(resume({ type: "accept", args: null }), threadA);
      expect(interruptsOf(result)).toEqual([]);
      expect(
        (await tempo.repository.load("student")).tasks.find((task) => task.id === "binary-tree-review"),
      ).toMatchObject({ status: after });
    },
  );
});

describe("a place card answered after another thread cleared the day it places on", () => {
  test("it applies as it showed; the cleared review stays pending; neither thread's change is lost or made twice", async () => {
    // Sunday evening before the week: thread A's card puts the binary tree review on Monday 19:00; thread B clears
    // Monday (the limits review, 14:00) and applies it while A's card waits.
    const tempo = await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-10T20:00:00+08:00"));
    const placeCard = await toWriteCard(tempo, "thread-a", "put the binary tree review on Monday");
    expect(cardLines(placeCard)).toEqual(['Place "Binary tree review" on Mon 11 Mar, 19:00–19:45']);
    const onB = await converse(tempo, "clear tomorrow", [], "thread-b");
    expect(onB.cards.map((card) => card.action)).toEqual(["confirm_plan", "unplace"]);
    expect(placeOf(await tempo.repository.load("student"), "review-limits")).toBe("pending");

    // The card's review and its day are as it showed them: it applies, once, and B's clearing stays.
    const answered = await tempo.graph.invoke(
      resume({ type: "accept", args: null }),
      threadConfig("thread-a", "student"),
    );
    expect(interruptsOf(answered)).toEqual([]);
    const week = await tempo.repository.load("student");
    expect(placeOf(week, "binary-tree-review")).toBe("day 1 slots 9-9");
    expect(placeOf(week, "review-limits")).toBe("pending");
    expect(answered.finalAnswer).toContain('Where things are now: "Binary tree review" — Mon 11 Mar, 19:00–19:45.');
    // A's task was about the binary tree review: the review B took off is B's business, not left undone by A.
    const state = await tempo.graph.getState(threadConfig("thread-a", "student"));
    expect((state.values as { outcome?: { kind: string } }).outcome?.kind).toBe("completed");
  });
});
