/** The schedule's offline part (`offline/plugin.ts`): its policy, for the schedule plug-in's prompts. */
import { schedulePlugin } from "../../tools/schedule/plugin.js";
import type { OfflinePlugin } from "../plugin.js";
import { scheduleOfflinePolicy } from "./policy.js";
import { parseToolData } from "./result-parsing.js";

export const scheduleOfflinePlugin: OfflinePlugin = {
  domain: schedulePlugin.name,
  policy: () => scheduleOfflinePolicy(),
  readToolText: parseToolData,
};
