/**
 * A domain's version is what a saved task's plan was made with (docs/design.md#workflow-version): a task in progress
 * under another version is planned again. The version must therefore change whenever a tool is added, removed or
 * renamed, or its arguments change — this guard fails when they change and the version does not.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { PLAIN_NAME_RULE } from "../../contracts/plain-name.js";
import { SCHEDULE_DOMAIN_VERSION } from "../../tools/schedule/domain.js";
import { scheduleTools } from "../../tools/schedule/tools/index.js";
import { TODO_DOMAIN_VERSION } from "../../tools/todo/domain.js";
import { todoTools } from "../../tools/todo/tools.js";

/** The tools' names, kinds and argument schemas, as one short hash. */
function toolsFingerprint(tools: ReadonlyArray<{ name: string; kind: string; schema: z.ZodType }>): string {
  const shape = tools.map((tool) => [tool.name, tool.kind, z.toJSONSchema(tool.schema, { io: "input" })]);
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 16);
}

/**
 * Each version a domain's tools have had since the guard, with its fingerprint. Add a line when you bump (a zod upgrade
 * that writes schemas differently changes it too: then record the new fingerprint under the same version).
 */
const VERSIONS: Record<string, string> = {
  "schedule-6": "e17cbd4395358450",
  "schedule-7": "4524f06060c19bc0",
  // A name the model writes is plain text on one line (contracts/plain-name.ts), said in the name's description.
  "schedule-8": "1c7e5e9b289e97ee",
  // propose_arrangement keeps parts of days free (`keep_free`: "not tonight").
  "schedule-9": "6553aeb93863607f",
  "todo-1": "c37c7477cb0a1693",
  "todo-2": "38a6ee68972a1bcc",
};

/** The check: the domain's version is the one recorded for its tools, and no other version has the same tools. */
function expectVersionOf(version: string, tools: Parameters<typeof toolsFingerprint>[0]): void {
  const fingerprint = toolsFingerprint(tools);
  expect(VERSIONS[version], `the tools changed (fingerprint ${fingerprint}): bump ${version} and record it here`).toBe(
    fingerprint,
  );
  // A fingerprint belongs to one version: two versions with the same tools would replan saved tasks for nothing.
  const same = Object.entries(VERSIONS).filter(([, recorded]) => recorded === fingerprint);
  expect(same.map(([name]) => name)).toEqual([version]);
}

describe("domain versions", () => {
  test("the schedule domain's version changes with its tools' names and arguments", () => {
    expectVersionOf(SCHEDULE_DOMAIN_VERSION, scheduleTools);
  });

  test("the to-do domain's version changes with its tools' names and arguments", () => {
    expectVersionOf(TODO_DOMAIN_VERSION, todoTools);
  });

  test("a name's plain-text rule is in the schema the model sees, so the fingerprint moves with it", () => {
    // The rule was a refinement alone: the tools refused names they had taken, their fingerprint and versions unmoved,
    // and a plan saved with such a name was not planned again.
    const described = (tools: typeof scheduleTools | typeof todoTools, tool: string, field: string) => {
      const found = tools.find((each) => each.name === tool)!;
      const schema = z.toJSONSchema(found.schema, { io: "input" }) as {
        properties: Record<string, { description?: string }>;
      };
      return schema.properties[field]?.description ?? "";
    };
    for (const [tool, field] of [
      ["add_task", "name"],
      ["update_task", "name"],
      ["upsert_task_class", "name"],
      ["add_habit", "name"],
    ])
      expect(described(scheduleTools, tool!, field!), tool).toContain(PLAIN_NAME_RULE);
    expect(described(todoTools, "add_todo", "title")).toContain(PLAIN_NAME_RULE);
  });

  test("the fingerprint sees a tool's arguments change", () => {
    const [first, ...rest] = scheduleTools;
    const widened = { ...first!, schema: (first!.schema as z.ZodObject).extend({ extra: z.string().optional() }) };
    expect(toolsFingerprint([widened, ...rest])).not.toBe(toolsFingerprint(scheduleTools));
    expect(toolsFingerprint(rest)).not.toBe(toolsFingerprint(scheduleTools));
  });
});
