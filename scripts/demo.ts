/**
 * `npm run demo`: a whole scheduling conversation with no network. The user
 * asks to arrange next week's review; the plan is shown and confirmed; each
 * write is shown and confirmed; the summary is delivered. Confirmations are
 * answered by this script and printed as such.
 */
import { randomUUID } from "node:crypto";
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { readSettings } from "../config/environment.js";
import { createTempo } from "../runtime/create-tempo.js";
import type { TempoEvent } from "../streaming/events.js";

const REQUEST = "Help me arrange next week's review sessions.";

async function main(): Promise<void> {
  const settings = readSettings();
  const started = Date.now();
  const tempo = await createTempo(settings);
  const runId = randomUUID().slice(0, 8);
  const config = { configurable: { thread_id: `demo-${runId}`, user_id: `demo-student-${runId}` } };
  try {
    console.log("Tempo demo");
    for (const line of tempo.describe()) console.log(`  ${line}`);
    console.log(`  thread: ${config.configurable.thread_id}  user: ${config.configurable.user_id}\n`);
    console.log(`user> ${REQUEST}`);

    let input: Parameters<typeof tempo.graph.stream>[0] = { messages: [new HumanMessage(REQUEST)] };
    for (let turn = 0; turn < 40; turn += 1) {
      await printStream(await tempo.graph.stream(input, { ...config, streamMode: "custom" }));
      const state = await tempo.graph.getState(config);
      const pending = state.tasks.flatMap((task) => task.interrupts)[0];
      if (!pending) break;
      const card = pending.value as HumanInterrupt;
      console.log(`\n┌─ confirmation: ${card.action_request.action}`);
      for (const line of (card.description ?? "").split("\n")) console.log(`│ ${line}`);
      console.log("└─ demo answers: accept\n");
      input = new Command({ resume: { type: "accept", args: null } }) as typeof input;
    }

    const final = await tempo.graph.getState(config);
    const steps = final.values.planSteps as Array<{ content: string; status: string }>;
    console.log(`\nphase: ${final.values.phase}; steps: ${steps.map((step) => step.status).join(", ")}`);
    console.log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log("\nThe conversation is checkpointed in Postgres; any process can resume it:");
    for (const line of tempo.describe()) console.log(`  ${line}`);
    console.log(`  graph.getState({ configurable: { thread_id: "${config.configurable.thread_id}" } }) reads it back from any process,`);
    console.log(`  and graph.invoke({ messages: [...] }, { configurable: { thread_id: "${config.configurable.thread_id}", user_id: "${config.configurable.user_id}" } }) continues it.`);
  } finally {
    await tempo.close();
  }
}

/** Prints status lines, assistant text (chunks joined per message) and tool activity. */
async function printStream(stream: AsyncIterable<unknown>): Promise<void> {
  let openMessage: string | undefined;
  for await (const chunk of stream) {
    const event = chunk as TempoEvent;
    if (event.kind !== "assistant_text" && openMessage) {
      process.stdout.write("\n");
      openMessage = undefined;
    }
    switch (event.kind) {
      case "status":
        console.log(`  · ${event.text}`);
        break;
      case "assistant_text":
        if (openMessage !== event.messageId) {
          if (openMessage) process.stdout.write("\n");
          process.stdout.write("tempo> ");
          openMessage = event.messageId;
        }
        process.stdout.write(event.text);
        break;
      case "tool_call":
        console.log(`  → ${event.name} ${JSON.stringify(event.arguments)}`);
        break;
      case "tool_result":
        console.log(`  ← ${event.content.split("\n")[0]}${event.content.includes("\n") ? " …" : ""}`);
        break;
      default:
        break;
    }
  }
  if (openMessage) process.stdout.write("\n");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exitCode = 1;
});
