/**
 * A domain's offline part as a plug-in: the policy that stands in for a model when no model key is set, for the
 * prompts about that domain (`offline/router.ts` picks the domain each prompt is about). It is registered by the
 * name of its domain's plug-in (`tools/plugin.ts`) in `offline/registry.ts`, so `tools/` never imports the offline
 * model: the policies read the tools' structured results (`ToolRun.data`, the rounds' `data` in
 * `offline/prompt-reading.ts`), and the composition root (`server/create-tempo.ts`) puts the two together.
 */
import type { OfflinePolicy } from "./router.js";

/** One domain's offline policy, ready to be served with its domain. */
export interface OfflinePlugin {
  /** The `name` of the domain plug-in this policy answers for (`TEMPO_DOMAINS`). */
  domain: string;
  /** Builds the policy. */
  policy(): OfflinePolicy;
  /**
   * A tool's data (`ToolRun.data`) read back from its text, for a reader that has the text only (a model-server
   * double, which receives tool results as OpenAI sends them); undefined for a failure or a tool not this domain's.
   */
  readToolText(name: string, content: string): unknown;
}
