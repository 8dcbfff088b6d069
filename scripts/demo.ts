/**
 * `npm run demo`: a whole conversation with no network for each served domain
 * (`TEMPO_DOMAINS`; each plug-in's `demoRequest`). For the schedule, the user
 * asks to arrange next week's review; the plan is shown and confirmed; the
 * week's placements are shown on one batch card and each confirmed; the
 * summary is delivered. With `TEMPO_DOMAINS=schedule,todo`, a to-do is added
 * on a second thread the same way. Confirmations are
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
import { createTempo, type Tempo } from "../server/create-tempo.js";
import { pluginsNamed } from "../tools/registry.js";
import { isTempoEvent } from "../server/openai-sse.js";

/** Cards the demo answers at most in one conversation; the schedule's needs one for the plan and one batch card for the week. */
const MAX_CARDS = 40;

async function main(): Promise<void> {
  const settings = readSettings();
  const started = Date.now();
  const tempo = await createTempo(settings);
  const runId = randomUUID().slice(0, 8);
  const user = `demo-student-${runId}`;
  try {
    console.log("Tempo demo");
    for (const line of tempo.describe()) console.log(`  ${line}`);
    // One conversation for each served domain that has a demo request (TEMPO_DOMAINS, default: the schedule).
    const conversations = pluginsNamed(settings.domains).flatMap((plugin) =>
      plugin.demoRequest ? [{ domain: plugin.name, request: plugin.demoRequest }] : [],
    );
    let first: string | undefined;
    for (const [index, { domain, request }] of conversations.entries()) {
      const thread = index === 0 ? `demo-${runId}` : `demo-${runId}-${domain}`;
      first ??= thread;
      if (index > 0) console.log("");
      await converse(tempo, { configurable: { thread_id: thread, user_id: user } }, request);
    }
    console.log(`finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log("\nThe conversation is checkpointed in Postgres; any process can resume it:");
    for (const line of tempo.describe()) console.log(`  ${line}`);
    console.log(`  npm start -- --thread ${first} --user ${user}   opens it in the terminal chat (/state, /history),`);
    console.log(`  graph.getState({ configurable: { thread_id: "${first}" } }) reads it back from any process,`);
    console.log(
      `  and graph.invoke({ messages: [...] }, { configurable: { thread_id: "${first}", user_id: "${user}" } }) continues it.`,
    );
  } finally {
    await tempo.close();
  }
}

/** One conversation: the request, each card printed and approved, then how it ended. */
async function converse(
  tempo: Tempo,
  config: { configurable: { thread_id: string; user_id: string } },
  request: string,
): Promise<void> {
  console.log(`  thread: ${config.configurable.thread_id}  user: ${config.configurable.user_id}\n`);
  console.log(`user> ${request}`);
  let input: Parameters<typeof tempo.graph.stream>[0] = { messages: [new HumanMessage(request)] };
  let answered = 0;
  for (; answered <= MAX_CARDS; answered += 1) {
    await printStream(await tempo.graph.stream(input, { ...config, streamMode: "custom" }));
    const state = await tempo.graph.getState(config);
    const pending = state.tasks.flatMap((task) => task.interrupts)[0];
    const card = pending ? asCard(pending.value) : null;
    if (!pending || !card) break;
    console.log(renderCard(card, { verbose: true }));
    const writes = card.action_requests.length;
    console.log(writes > 1 ? `demo answers: approve all ${writes}\n` : "demo answers: approve\n");
    // V1 decisions, one per action request, addressed to this card's interrupt id.
    input = new Command({
      resume: { [pending.id!]: { decisions: card.action_requests.map(() => ({ type: "approve" })) } },
    }) as typeof input;
  }
  if (answered > MAX_CARDS)
    throw new Error(`The demo answered ${MAX_CARDS} cards and the thread still waits; stopping.`);
  const final = await tempo.graph.getState(config);
  const steps = final.values.planSteps as Array<{ content: string; status: string }>;
  const rounds = `rounds used: ${final.values.roundsUsed} of ${final.values.maxRounds}`;
  console.log(
    `\nphase: ${final.values.phase}; steps: ${steps.map((step) => step.status).join(", ")}; cards answered: ${answered}; ${rounds}`,
  );
}

/** Prints status lines, assistant text (chunks joined per message) and tool activity as they arrive. */
async function printStream(stream: AsyncIterable<unknown>): Promise<void> {
  const printer = new StreamPrinter({ verbose: true });
  for await (const event of stream) {
    if (isTempoEvent(event)) process.stdout.write(printer.print(event));
  }
  process.stdout.write(printer.close());
}

main().catch((error: unknown) => {
  console.error(renderError(error));
  process.exitCode = 1;
});
