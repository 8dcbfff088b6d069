/**
 * "When am I free?" under a standing preference of hours. A day whose hours a preference leaves no slot of ("nothing
 * after 8am on Fridays") was listed with its free time, or — asked for any day under "never on Friday" — silently left
 * out; a day's evening past "no studying after 9pm" was offered with nothing said. Now the answer says which days were
 * not counted and why, and where the free time reaches past the hours kept, the hours a review may take. Through the
 * graph with the offline policy and the preferences in the store; the clock times expected are read off the sample
 * week's own slot times.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, tempoHolding } from "./support/offline-conversation.js";

const TIMES = sampleWeek().window.slotTimes!;
/** The clock times of the slots a review may take under "nothing after `hour`": the first slot to the last ending by it. */
const untilHour = (hour: number) => {
  const by = `${String(hour).padStart(2, "0")}:00`;
  const last = TIMES.filter((time) => time.end <= by).at(-1)!;
  return `${TIMES[0]!.start}–${last.end}`;
};

/** The answer to `ask` by a user who said `said` before, on the sample week. */
async function answered(said: string, ask: string): Promise<string> {
  const { tempo } = await tempoHolding(said, sampleWeek());
  const outcome = await converse(tempo, ask);
  expect(outcome.toolCalls).toEqual(["find_free"]);
  return outcome.said.at(-1) ?? "";
}

describe("when am I free, under a preference of hours", () => {
  test("'nothing after 8am on Fridays', asked for any day: Friday is not counted, and the preference says why", async () => {
    const answer = await answered("nothing after 8am on Fridays", "when am I free?");
    expect(answer).toMatch(/^- Thu 14 Mar: /m);
    expect(answer).not.toMatch(/^- Fri 15 Mar/m);
    expect(answer).toContain(
      'Not counted: Fri 15 Mar (your standing preference "nothing after 8am on Fridays" leaves reviews no time there).',
    );
  });

  test("'nothing after 8am on Fridays', asked for Friday: its free time, and that reviews have none of it", async () => {
    const answer = await answered("nothing after 8am on Fridays", "when am I free on Friday?");
    expect(answer).toMatch(/^- Fri 15 Mar: /m);
    expect(answer).toContain(
      'Your standing preference "nothing after 8am on Fridays" leaves reviews no time on Fri 15 Mar.',
    );
  });

  test("'no studying before 22:00': no day has a slot, and the answer names the preference", async () => {
    const answer = await answered("no studying before 22:00", "when am I free?");
    expect(answer).toContain('your standing preference "no studying before 22:00" leaves them no slot');
  });

  test("'never on Friday', asked for any day: Friday is not counted, said so", async () => {
    const answer = await answered("never on Friday", "when am I free?");
    expect(answer).not.toMatch(/^- Fri 15 Mar/m);
    expect(answer).toContain("Not counted: Fri 15 Mar (your standing preferences rule out reviews there).");
  });

  test.each([
    [
      "no studying after 9pm",
      "when am I free on Friday?",
      `On Fri 15 Mar, your standing preference "no studying after 9pm" keeps reviews to ${untilHour(21)}.`,
    ],
    [
      "no studying after 9pm",
      "when am I free?",
      `Every day, your standing preference "no studying after 9pm" keeps reviews to ${untilHour(21)}.`,
    ],
    [
      "晚上9点以后不学习",
      "我周五什么时候有空？",
      `3月15日周五，你的长期偏好“晚上9点以后不学习”只允许复习安排在 ${untilHour(21)}。`,
    ],
  ])(
    "'%s', then '%s': the evening past the hour is free time, and the hours a review may take are said",
    async (said, ask, note) => {
      const answer = await answered(said, ask);
      // The free time listed still reaches past 21:00 (it is free), and the note says where a review may go.
      expect(answer).toMatch(/22:30/);
      expect(answer).toContain(note);
    },
  );
});
