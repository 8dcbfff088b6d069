/**
 * `npm run demo`: a whole scheduling conversation with no network. The user
 * asks to arrange next week's review; the plan is shown and confirmed; the
 * week's placements are shown on one batch card and each confirmed; the
 * summary is delivered. Confirmations are
 * answered by this script and printed as such, with the terminal chat's
 * cards and stream lines (`cli/render.ts`, `cli/stream-printer.ts`).
 */
import { randomUUID } from "node:crypto";
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { renderCard, renderError } from "../cli/render.js";
import { StreamPrinter } from "../cli/stream-printer.js";
import { readSettings } from "../config/environment.js";
import { asCard } from "../contracts/cards.js";
import { createTempo } from "../server/create-tempo.js";
import { isTempoEvent } from "../server/openai-sse.js";

const REQUEST = "Help me arrange next week's review sessions.";

/** Cards the demo answers at most; the offline policy needs one for the plan and one batch card for the week. */
const MAX_CARDS = 40;

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
    let answered = 0;
    for (; answered <= MAX_CARDS; answered += 1) {
      await printStream(await tempo.graph.stream(input, { ...config, streamMode: "custom" }));
      const state = await tempo.graph.getState(config);
      const pending = state.tasks.flatMap((task) => task.interrupts)[0];
      const card = pending ? asCard(pending.value) : null;
      if (!pending || !card) break;
      console.log(renderCard(card));
      const writes = card.action_requests.length;
      console.log(writes > 1 ? `demo answers: approve all ${writes}\n` : "demo answers: approve\n");
      // V1 decisions, one per action request, addressed to this card's interrupt id.
      input = new Command({ resume: { [pending.id!]: { decisions: card.action_requests.map(() => ({ type: "approve" })) } } }) as typeof input;
    }
    if (answered > MAX_CARDS) throw new Error(`The demo answered ${MAX_CARDS} cards and the thread still waits; stopping.`);

    const final = await tempo.graph.getState(config);
    const steps = final.values.planSteps as Array<{ content: string; status: string }>;
    const rounds = `rounds used: ${final.values.roundsUsed} of ${final.values.maxRounds}`;
    console.log(`\nphase: ${final.values.phase}; steps: ${steps.map((step) => step.status).join(", ")}; cards answered: ${answered}; ${rounds}`);
    console.log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log("\nThe conversation is checkpointed in Postgres; any process can resume it:");
    for (const line of tempo.describe()) console.log(`  ${line}`);
    console.log(`  npm start -- --thread ${config.configurable.thread_id} --user ${config.configurable.user_id}   opens it in the terminal chat (/state, /history),`);
    console.log(`  graph.getState({ configurable: { thread_id: "${config.configurable.thread_id}" } }) reads it back from any process,`);
    console.log(`  and graph.invoke({ messages: [...] }, { configurable: { thread_id: "${config.configurable.thread_id}", user_id: "${config.configurable.user_id}" } }) continues it.`);
  } finally {
    await tempo.close();
  }
}

/** Prints status lines, assistant text (chunks joined per message) and tool activity as they arrive. */
async function printStream(stream: AsyncIterable<unknown>): Promise<void> {
  const printer = new StreamPrinter();
  for await (const event of stream) {
    if (isTempoEvent(event)) process.stdout.write(printer.print(event));
  }
  process.stdout.write(printer.close());
}

main().catch((error: unknown) => {
  console.error(renderError(error));
  process.exitCode = 1;
});
