/**
 * A write card's edit-box hints (`args_schema` field descriptions, which Agent Chat UI and Agent Inbox show under
 * each box) are in the user's language: a Chinese thread's card gets Chinese hints, an English one keeps the tools'
 * own descriptions; a field Tempo has no hint for keeps the tool's.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { CardSchema } from "../../contracts/cards.js";
import { cardArgsSchema } from "../../review/card-hints.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { scheduleTools } from "../../tools/schedule/tools/index.js";
import { resume, threadConfig } from "../support/scripted.js";

/** The first write card of an arrange request in `text`'s language: its action's field hints. */
async function writeCardHints(text: string): Promise<Record<string, string>> {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const graph = buildTempoGraph({
    models: { default: new ScheduleOfflinePolicy({ writesPerCard: 1 }) },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
  });
  const config = threadConfig(`hints-${text.length}`);
  await graph.invoke({ messages: [new HumanMessage(text)] }, config);
  const result = await graph.invoke(resume({ type: "accept", args: null }), config);
  const card = CardSchema.parse((result as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__?.[0]?.value);
  expect(card.action_requests[0]!.name).toBe("place");
  const schema = card.review_configs[0]!.args_schema as { properties: Record<string, { description: string }> };
  return Object.fromEntries(
    Object.entries(schema.properties).map(([field, property]) => [field, property.description]),
  );
}

/** The place tool's own hint for its day (an English card keeps it as the tool says it). */
const placeDayDescription = () =>
  (
    scheduleTools.find((tool) => tool.name === "place")!.schema as unknown as {
      shape: { day: { description?: string } };
    }
  ).shape.day.description;

const hasChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

describe("write card hints in the user's language", () => {
  test("a Chinese thread's write card hints every edit box in Chinese", async () => {
    const hints = await writeCardHints("帮我安排下周的复习");
    expect(Object.keys(hints)).toEqual(["task_id", "day", "slot_start"]);
    for (const hint of Object.values(hints)) expect(hasChinese(hint), hint).toBe(true);
  });

  test("an English thread's write card keeps the tools' descriptions", async () => {
    const hints = await writeCardHints("Help me arrange next week's review");
    for (const hint of Object.values(hints)) expect(hasChinese(hint), hint).toBe(false);
    expect(hints.day).toBe(placeDayDescription());
  });

  test("a field without a Chinese hint keeps the tool's description; the rest of the schema is unchanged", () => {
    const schema = {
      type: "object",
      properties: {
        day: { type: "integer", description: "Day index." },
        mystery: { type: "string", description: "?" },
      },
      required: ["day"],
    };
    expect(cardArgsSchema(schema, "zh")).toEqual({
      ...schema,
      properties: {
        day: { type: "integer", description: expect.stringContaining("第几天") },
        mystery: schema.properties.mystery,
      },
    });
    expect(cardArgsSchema(schema, "en")).toBe(schema);
  });
});
