/**
 * The offline policy's request understanding, as a table: each request, in
 * English and in Chinese, driven through the whole graph (chat → plan →
 * confirm → execute → deliver), with the cards the user sees, the answer and
 * the schedule afterwards. Every card is accepted.
 */
import { describe, expect, test } from "vitest";
import {
  converse,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
  reviewsExcept,
  type ConversationOutcome,
} from "./support/offline-conversation.js";
import { SCHEDULE_REFINEMENT } from "../../tools/schedule/domain.js";
import { sampleWeek } from "../../tools/schedule/index.js";

interface Row {
  /** What the user types. */
  request: string;
  /** Task names in Chinese (the Chinese rows). */
  chinese?: boolean;
  /** The cards, in order: action and the arguments expected on it (a subset). */
  cards: Array<[string, Record<string, unknown>?]>;
  /** Checks on the outcome. */
  then: (outcome: ConversationOutcome) => void;
}

/** A plan card whose first step is `content` (the card's `steps` text, one numbered step a line). */
const planStep = (content: string) =>
  [
    "confirm_plan",
    {
      steps: expect.stringMatching(
        new RegExp(`^1\\. ${content.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} — (done when: |完成标志：)`),
      ),
    },
  ] as [string, Record<string, unknown>];

const ROWS: Row[] = [
  // Writes: a plan card for exactly that write, then the write's card, then the result.
  {
    request: "Move my matrix review to Thursday",
    cards: [
      planStep('Move "matrix review" to Thursday, Mar 14'),
      ["move", { task_id: "matrix-review", day: 4, slot_start: 7 }],
    ],
    then: (outcome) => {
      expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 4 slots 7-8");
      // The task by its name, the places by date and clock time (the sample week is dated).
      expect(outcome.finalAnswer).toBe(
        'Done: moved "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40.',
      );
    },
  },
  {
    // Friday evening: before Saturday's calculus midterm, which the review is due before.
    request: "move review-limits to Friday slot 9",
    cards: [
      planStep('Move "review-limits" to Friday, Mar 15, slot 9'),
      ["move", { task_id: "review-limits", day: 5, slot_start: 9 }],
    ],
    then: (outcome) => expect(placeOf(outcome.schedule, "review-limits")).toBe("day 5 slots 9-10"),
  },
  {
    // After the midterm: the move is refused with the deadline named, and the review stays where it was.
    request: "move review-limits to Saturday slot 7",
    // Tried before any card: the write is refused, so no move card is shown.
    cards: [planStep('Move "review-limits" to Saturday, Mar 16, slot 7')],
    then: (outcome) => {
      expect(placeOf(outcome.schedule, "review-limits")).toBe("day 1 slots 5-6");
      // The exam by name and its start by date and time; the refusal said once, in the answer alone.
      expect(outcome.finalAnswer).toBe(
        'Your schedule is unchanged: "Review limits and continuity" must be done before "Calculus midterm exam" (Sat 16 Mar, 10:00); Sat 16 Mar, 16:00–17:40 is too late.',
      );
      expect(outcome.said.filter((text) => text.includes("must be done before"))).toHaveLength(1);
    },
  },
  {
    request: "Move the limits review to the evening",
    // Same day (Monday); the evening's room for two slots is inside the study hall, so the review embeds there.
    cards: [
      planStep('Move "limits review" to the evening (slots 9-12)'),
      ["move", { task_id: "review-limits", day: 1, slot_start: 9 }],
    ],
    then: (outcome) =>
      expect(outcome.finalAnswer).toBe(
        'Done: moved "Review limits and continuity" from Mon 11 Mar, 14:00–15:40 to Mon 11 Mar, 19:00–20:40 inside "Evening self-study hall".',
      ),
  },
  {
    request: "Swap review-limits and matrix-review",
    cards: [
      planStep('Swap "review-limits" with "matrix-review"'),
      ["swap", { first_task_id: "review-limits", second_task_id: "matrix-review" }],
    ],
    then: (outcome) => {
      expect(placeOf(outcome.schedule, "review-limits")).toBe("day 2 slots 3-4");
      expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 1 slots 5-6");
    },
  },
  {
    request: "unplace the vocabulary list",
    cards: [planStep('Unplace "vocabulary list"'), ["unplace", { task_id: "vocabulary-list" }]],
    then: (outcome) => {
      expect(placeOf(outcome.schedule, "vocabulary-list")).toBe("pending");
      expect(outcome.finalAnswer).toContain("it is pending again");
    },
  },
  {
    request: "Schedule the linked list exercises on Friday evening",
    cards: [["confirm_plan"], ["place", { task_id: "linked-list-exercises", day: 5, slot_start: 9 }]],
    then: (outcome) => {
      expect(outcome.planSteps[0]).toBe(
        'Place the pending review tasks "linked list exercises" into free slots that fit them, on Friday, Mar 15, in the evening (slots 9-12)',
      );
      expect(placeOf(outcome.schedule, "linked-list-exercises")).toBe("day 5 slots 9-10");
      expect(placeOf(outcome.schedule, "derivative-drills")).toBe("pending");
      expect(outcome.finalAnswer).toMatch(
        /^Placed what you asked for\. 3 review task\(s\) in the whole week are still pending\./,
      );
    },
  },
  {
    request: "arrange Wednesday",
    cards: [
      ["confirm_plan"],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
    ],
    then: (outcome) => {
      expect(outcome.planSteps[0]).toBe(
        "Place each pending review task into a free slot that fits it, on Wednesday, Mar 13",
      );
      // The four pending reviews (five slots) all fit on Wednesday: two free runs and the study hall.
      const placedOnWednesday = outcome.schedule.tasks.filter(
        (task) => task.source === "task_item" && task.slots?.[0]?.day === 3,
      );
      expect(placedOnWednesday).toHaveLength(4);
      expect(outcome.finalAnswer).toMatch(/^Placed what you asked for\.\n/);
    },
  },
  {
    request: "Arrange my reviews, but not on Monday or Sunday",
    cards: [["confirm_plan"], ["place"], ["place"], ["place"], ["place"]],
    then: (outcome) => {
      expect(outcome.planSteps[0]).toBe(
        "Place each pending review task into a free slot that fits it, not on Monday and Sunday",
      );
      const days = outcome.cards.slice(1).map((card) => card.args.day);
      expect(days).not.toContain(1);
      expect(days).not.toContain(7);
      expect(outcome.finalAnswer).toContain("Your review week is arranged.");
    },
  },
  // Reads: answered from the read tools, no card at all.
  {
    request: "When am I free on Saturday afternoon?",
    cards: [],
    then: (outcome) => expect(outcome.finalAnswer).toBe("You are free in 14:00–17:40:\n- Sat 16 Mar: 14:55–17:40"),
  },
  {
    request: "what's on Tuesday?",
    cards: [],
    then: (outcome) => {
      expect(outcome.finalAnswer).toContain("Tue 12 Mar, 08:00–22:30:");
      expect(outcome.finalAnswer).toContain("- 10:00–11:40: Matrix operations review\n");
      // People's words: names and flags, no ids.
      expect(outcome.finalAnswer).not.toMatch(/\((task|event) [a-z-]+/);
      expect(outcome.finalAnswer).toContain("- 20:50–22:30: free");
    },
  },
  {
    request: "Which tasks are still pending?",
    cards: [],
    then: (outcome) => {
      expect(outcome.finalAnswer).toMatch(
        /^4 pending review task\(s\):\n- Derivative practice set, 1 slot\(s\), pending/,
      );
      expect(outcome.finalAnswer).not.toContain("Matrix operations review");
    },
  },
  {
    request: "show me the placed tasks",
    cards: [],
    then: (outcome) =>
      expect(outcome.finalAnswer).toContain("- Matrix operations review, 2 slot(s), on Tue 12 Mar, 10:00–11:40"),
  },
  {
    request: "explain the essay draft",
    cards: [],
    then: (outcome) => {
      expect(outcome.finalAnswer).toBe(
        '"Draft the English essay" is a study task in the class "English", 2 slot(s), placed on Sat 16 Mar, 08:00–09:40.',
      );
    },
  },
  // What it cannot do offline: an honest answer, never a plan.
  {
    request: "what can you do?",
    cards: [],
    then: (outcome) => {
      expect(outcome.phase).toBe("chatting");
      expect(outcome.said.at(-1)).toContain("I'm running offline");
      expect(outcome.said.at(-1)).toContain("Set OPENAI_API_KEY");
    },
  },
  {
    request: "Write me a poem about autumn leaves",
    cards: [],
    then: (outcome) => {
      expect(outcome.phase).toBe("chatting");
      expect(outcome.planSteps).toEqual([]);
      expect(outcome.said.at(-1)).toContain(
        'Offline, I can\'t tell what to do with "Write me a poem about autumn leaves".',
      );
    },
  },
  // The same in Chinese, on a week whose reviews have Chinese names.
  {
    request: "帮我安排下周的复习",
    chinese: true,
    // The plan and the four placements; the refinement moves none of the reviews placed before the request (issue 46).
    cards: [["confirm_plan"], ["place"], ["place"], ["place"], ["place"]],
    then: (outcome) => {
      expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
        [],
      );
      // A Chinese request is answered in Chinese: the plan's steps (the refinement step in the domain's Chinese) and
      // the final answer.
      expect(outcome.planSteps).toEqual([
        "把所有待安排的复习任务放进能容纳它们的时段",
        SCHEDULE_REFINEMENT.localized!.zh!.content,
        "核对日程",
      ]);
      expect(outcome.finalAnswer).toMatch(/^你的复习周已安排好。\n- \[完成\] /);
    },
  },
  {
    request: "把矩阵复习移到周四下午",
    chinese: true,
    cards: [
      planStep('把 "矩阵复习" 移到 3月14日周四，下午（第5-8节）'),
      ["move", { task_id: "matrix-review", day: 4, slot_start: 7 }],
    ],
    then: (outcome) => {
      expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 4 slots 7-8");
      expect(outcome.finalAnswer).toBe(
        '完成：已把"矩阵运算复习" 从3月12日周二 10:00–11:40移到3月14日周四 16:00–17:40。',
      );
    },
  },
  {
    request: "交换极限复习和矩阵复习",
    chinese: true,
    cards: [["confirm_plan"], ["swap", { first_task_id: "review-limits", second_task_id: "matrix-review" }]],
    then: (outcome) => expect(placeOf(outcome.schedule, "review-limits")).toBe("day 2 slots 3-4"),
  },
  {
    request: "取消安排单词表",
    chinese: true,
    cards: [["confirm_plan"], ["unplace", { task_id: "vocabulary-list" }]],
    then: (outcome) => expect(placeOf(outcome.schedule, "vocabulary-list")).toBe("pending"),
  },
  {
    request: "把链表习题安排到周五晚上",
    chinese: true,
    cards: [["confirm_plan"], ["place", { task_id: "linked-list-exercises", day: 5, slot_start: 9 }]],
    then: (outcome) => expect(placeOf(outcome.schedule, "linked-list-exercises")).toBe("day 5 slots 9-10"),
  },
  {
    request: "只安排周三",
    chinese: true,
    cards: [
      ["confirm_plan"],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
      ["place", { day: 3 }],
    ],
    then: (outcome) => expect(outcome.planSteps[0]).toBe("把所有待安排的复习任务放进能容纳它们的时段，3月13日周三"),
  },
  {
    request: "周六下午什么时候有空？",
    chinese: true,
    cards: [],
    then: (outcome) => expect(outcome.finalAnswer).toBe("你有空的时间（14:00–17:40）：\n- 3月16日周六：14:55–17:40"),
  },
  {
    request: "第2天有什么安排",
    chinese: true,
    cards: [],
    then: (outcome) => expect(outcome.finalAnswer).toContain("- 10:00–11:40：矩阵运算复习\n"),
  },
  {
    request: "还有哪些任务没安排？",
    chinese: true,
    cards: [],
    then: (outcome) => expect(outcome.finalAnswer).toContain("- 导数练习，1 节，待安排"),
  },
  {
    request: "解释一下英语作文",
    chinese: true,
    cards: [],
    then: (outcome) =>
      expect(outcome.finalAnswer).toMatch(
        /^"英语作文草稿"是"[^"]+"的学习任务，2 节，已安排在3月16日周六 08:00–09:40。$/,
      ),
  },
  {
    request: "你能做什么？",
    chinese: true,
    cards: [],
    then: (outcome) => {
      expect(outcome.phase).toBe("chatting");
      expect(outcome.said.at(-1)).toContain("我现在以离线模式运行");
    },
  },
  {
    request: "给我讲个笑话",
    chinese: true,
    cards: [],
    then: (outcome) => {
      expect(outcome.planSteps).toEqual([]);
      expect(outcome.said.at(-1)).toContain("离线模式下我理解不了“给我讲个笑话”");
    },
  },
];

describe("the offline policy understands the schedule's requests", () => {
  test.each(ROWS.map((row) => [row.request, row] as const))("%s", async (_, row) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: row.chinese }));
    const outcome = await converse(tempo, row.request);
    expect(outcome.cards.map((card) => card.action)).toEqual(row.cards.map(([action]) => action));
    row.cards.forEach(([, args], index) => {
      if (args) expect(outcome.cards[index]?.args).toMatchObject(args);
    });
    if (row.cards.length > 0 || outcome.planSteps.length > 0) expect(outcome.phase).toBe("done");
    row.then(outcome);
  });
});

describe("a task's name with an 'and' in it", () => {
  // "Review limits and continuity" was split at its "and": the plan card said 'the pending review tasks "review
  // limits", "continuity"', two tasks where the user named one.
  test.each([
    [
      "schedule review limits and continuity on Wednesday",
      'Place the pending review tasks "review limits and continuity" into free slots that fit them, on Wednesday, Mar 13',
      ["review-limits"],
    ],
    [
      "schedule the matrix review and review limits and continuity",
      'Place the pending review tasks "matrix review", "review limits and continuity" into free slots that fit them',
      ["matrix-review", "review-limits"],
    ],
    [
      "arrange everything except review limits and continuity",
      'Place each pending review task into a free slot that fits it, except "review limits and continuity"',
      reviewsExcept("review-limits"),
    ],
  ])("%s: the plan names it whole", async (request, step, placed) => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, request);
    expect(outcome.planSteps[0]).toBe(step);
    const nowPlaced = outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed");
    expect(nowPlaced.map((task) => task.id).sort()).toEqual([...placed].sort());
  });
});
