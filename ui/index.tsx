/**
 * Tempo's Generative UI components (issue 48), bundled by `langgraph dev` / `langgraph build` from langgraph.json's
 * `"ui": { "tempo": "./ui/index.tsx" }` and loaded by Agent Chat UI under the message they belong to.
 */
import { HealthPanel } from "./health.js";
import { StatusLine } from "./status.js";
import { WeekView } from "./week.js";

export default { week: WeekView, health: HealthPanel, status: StatusLine };
