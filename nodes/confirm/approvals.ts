/** Moved to review/approvals.ts; kept only until nodes/execute/ (being split) imports it from there. */
export type { HeldWrite } from "../../review/approvals.js";
