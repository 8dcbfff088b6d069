/**
 * The offline policy reads its prompt by section names, so sections other
 * stages or helpers add (memory, task state, episodes, more pinned blocks)
 * change none of its decisions.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { MemorySaver } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { decide } from "../../offline/schedule/policy.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Adds sections to every prompt (as memory features would), then lets the offline policy decide. */
class PolicyWithMoreSections extends BaseChatModel {
  constructor() {
    super({});
  }

  _llmType(): string {
    return "offline-policy-with-more-sections";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const extended = messages.map((message, index) => {
      if (message.getType() !== "human" || typeof message.content !== "string") return message;
      if (index === messages.length - 1) {
        // The sections' text grows; the data Tempo keeps beside them (the live state's) stays on the message.
        const content = `<conversation_memory>\n- Earlier the user asked: what can you do? Then: swap A and B.\n</conversation_memory>\n\n<episodes>\n- goal: move the essay; outcome: done\n</episodes>\n\n${message.content}`;
        return new HumanMessage({ content, additional_kwargs: message.additional_kwargs });
      }
      if (message.content.includes("<conversation>"))
        return new HumanMessage(
          `${message.content}\n\n<pinned key="task_state">\nGoal line of an old task: unplace everything\n</pinned>`,
        );
      return message;
    });
    const text = decide(extended);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

test("extra prompt sections change none of the offline policy's decisions", async () => {
  const plain = await converse(await offlineTempo(sampleWeek()), "Help me arrange next week's review", [], "plain");

  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", sampleWeek());
  const graph = buildTempoGraph({
    models: { default: new PolicyWithMoreSections() },
    domain: createScheduleDomain({ repository }),
    checkpointer: new MemorySaver(),
  });
  const extended = await converse({ graph, repository }, "Help me arrange next week's review", [], "extended");

  expect(extended.cards).toEqual(plain.cards);
  expect(extended.toolCalls).toEqual(plain.toolCalls);
  expect(extended.finalAnswer).toBe(plain.finalAnswer);
  expect(extended.schedule).toEqual(plain.schedule);
});
