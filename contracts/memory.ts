/** The memory stage's contract: older turns summarised into TaskState (docs/design.md#compression). */
import { z } from "zod";

export const TaskStateSummarySchema = z
  .object({
    current_goal: z.string().default("").describe("The user goal that still matters across turns, or empty."),
    active_flow: z.string().default("").describe("The high-level flow the user is in, or empty."),
    open_loops: z
      .array(z.string())
      .default([])
      .describe("High-level unresolved issues that still matter (no step-level to-dos)."),
    important_facts: z
      .array(z.string())
      .default([])
      .describe("Durable facts the user stated that tools cannot re-fetch (no live data)."),
    last_decision: z.string().default("").describe("The latest important decision and why, or empty."),
  })
  .describe("TaskState summary of older conversation turns");

export type TaskStateSummary = z.infer<typeof TaskStateSummarySchema>;
