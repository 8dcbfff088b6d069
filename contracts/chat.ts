/** The chat stage's contract (docs/design.md#chat): classify the message, reply directly when it is small talk. */
import { z } from "zod";

export const ChatDecisionSchema = z
  .object({
    intent: z
      .enum(["chat", "task"])
      .describe(
        "chat: small talk or a question answered from knowledge, no tools needed. task: anything that needs planning or tools. When unsure, task.",
      ),
    reply: z
      .string()
      .default("")
      .describe("For intent=chat, the full reply to the user. For intent=task, an optional one-line acknowledgement."),
    reason: z.string().default("").describe("One sentence on why this intent was chosen."),
  })
  .describe("Intent decision of the chat stage");

export type ChatDecision = z.infer<typeof ChatDecisionSchema>;
