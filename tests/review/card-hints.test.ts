/**
 * A write card's edit-box hints (`args_schema` field descriptions, which Agent Chat UI and Agent Inbox show under
 * each box) are in the user's language: a Chinese thread's card gets Chinese hints, an English one keeps the tools'
 * own descriptions; a field Tempo has no hint for keeps the tool's.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { CardSchema } from "../../contracts/cards.js";
import { cardArgsSchema, editForm } from "../../review/card-hints.js";
import { writeCard, writeCardOutline } from "../../review/interrupt-cards.js";
import { argumentsSchema } from "../../tools/langchain-tools.js";
import type { ProposedWrite } from "../../kernel/state.js";
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

  test("a tool's edit form is made once per language and is the form its cards show", () => {
    const place = scheduleTools.find((tool) => tool.name === "place")!;
    for (const language of ["en", "zh"] as const) {
      const form = editForm(place.schema, language);
      expect(form).toEqual(cardArgsSchema(argumentsSchema(place.schema), language));
      expect(editForm(place.schema, language)).toBe(form);
    }
    expect(editForm(place.schema, "zh")).not.toEqual(editForm(place.schema, "en"));
  });

  test("a write card's outline is what its raised card is read as: each action's name, arguments and decisions", () => {
    const write = (id: string, day: number): ProposedWrite => ({
      id,
      name: "place",
      arguments: { task_id: "review-limits", day, slot_start: 5 },
      summary: `Place on day ${day}`,
      reason: "",
    });
    const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
    const state = { planSteps: [], currentStepId: null };
    // A candidate's write (restore_event: a recorded event) is approved or rejected only, alone or in a batch.
    const restore: ProposedWrite = {
      id: "c",
      name: "restore_event",
      arguments: {
        event: { id: "e", name: "Lab", source: "event", slots: [], canEmbed: false, locked: false, embeds: [] },
      },
      summary: "Put back the event Lab",
      reason: "",
    };
    for (const writes of [
      [write("a", 1)],
      [write("a", 1), write("b", 2)],
      [restore],
      [write("a", 1), restore],
    ] as Array<[ProposedWrite, ...ProposedWrite[]]>) {
      const card = writeCard(writes, state, domain, "en");
      expect(writeCardOutline(writes, domain)).toEqual({
        kind: card.kind,
        action_requests: card.action_requests.map(({ name, args }) => ({ name, args })),
        review_configs: card.review_configs.map(({ allowed_decisions }) => ({ allowed_decisions })),
      });
      const fixed = writes.map((entry) => entry.name === "restore_event");
      expect(card.review_configs.map(({ allowed_decisions }) => allowed_decisions)).toEqual(
        fixed.map((isFixed) => (isFixed ? ["approve", "reject"] : ["approve", "edit", "reject"])),
      );
      // No edit form for a write no person edits.
      expect(card.review_configs.map((config) => "args_schema" in config)).toEqual(fixed.map((isFixed) => !isFixed));
    }
  });
});
