/** The to-do domain's offline part (`offline/plugin.ts`): its policy, for the to-do plug-in's prompts. */
import { todoPlugin } from "../../tools/todo/plugin.js";
import type { OfflinePlugin } from "../plugin.js";
import { todoOfflinePolicy } from "./policy.js";
import { parseTodoToolData } from "./result-parsing.js";

export const todoOfflinePlugin: OfflinePlugin = {
  domain: todoPlugin.name,
  policy: () => todoOfflinePolicy(),
  readToolText: parseTodoToolData,
};
