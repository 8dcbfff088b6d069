/**
 * Routing, in one place: pure functions of the state that mirror seed 003
 * §10. Each returns a union of node names. The seed's `branchIfInterrupted`
 * guard becomes `branchToPending`: a pending interaction always goes to the
 * node that raises the matching `interrupt()`.
 */
import { END } from "@langchain/langgraph";
import type { TempoState } from "./state.js";

export const NODE = {
  recall: "recall",
  chat: "chat",
  plan: "plan",
  confirm: "confirm",
  askUser: "ask_user",
  execute: "execute",
  deliver: "deliver",
  memorize: "memorize",
} as const;

type RoutingState = Pick<TempoState, "phase" | "pending">;

/** The node that waits on the pending interaction, if any. */
function branchToPending(state: RoutingState): typeof NODE.confirm | typeof NODE.askUser | undefined {
  if (!state.pending) return undefined;
  return state.pending.kind === "ask_user" ? NODE.askUser : NODE.confirm;
}

/** After chat: a pending interaction first; otherwise by phase (a direct reply is memorized and ends the turn). */
export function branchAfterChat(
  state: RoutingState,
): typeof NODE.confirm | typeof NODE.askUser | typeof NODE.plan | typeof NODE.execute | typeof NODE.deliver | typeof NODE.memorize {
  const pending = branchToPending(state);
  if (pending) return pending;
  switch (state.phase) {
    case "planning":
      return NODE.plan;
    case "executing":
      return NODE.execute;
    case "waiting_confirm":
      return NODE.confirm;
    case "done":
      return NODE.deliver;
    case "chatting":
      return NODE.memorize;
  }
}

/** After plan: ask, confirm the finished plan, plan another round, execute (after a replan), or deliver (finished). */
export function branchAfterPlan(
  state: RoutingState,
): typeof NODE.askUser | typeof NODE.confirm | typeof NODE.plan | typeof NODE.execute | typeof NODE.deliver | typeof END {
  const pending = branchToPending(state);
  if (pending) return pending;
  switch (state.phase) {
    case "waiting_confirm":
      return NODE.confirm;
    case "planning":
      return NODE.plan;
    case "executing":
      // After a replan or a no-op revision of a running plan.
      return NODE.execute;
    case "done":
      // A replan found the goal met.
      return NODE.deliver;
    case "chatting":
      return END;
  }
}

/** After confirm: accepted → execute; plan rejected → plan; plan dismissed → end. */
export function branchAfterConfirm(
  state: RoutingState,
): typeof NODE.askUser | typeof NODE.confirm | typeof NODE.execute | typeof NODE.plan | typeof END {
  const pending = branchToPending(state);
  if (pending) return pending;
  switch (state.phase) {
    case "executing":
      return NODE.execute;
    case "planning":
      return NODE.plan;
    case "waiting_confirm":
      return NODE.confirm;
    case "chatting":
    case "done":
      return END;
  }
}

/** After execute: loop, confirm a write, ask, or deliver. */
export function branchAfterExecute(
  state: RoutingState,
): typeof NODE.askUser | typeof NODE.confirm | typeof NODE.execute | typeof NODE.deliver | typeof NODE.plan | typeof END {
  const pending = branchToPending(state);
  if (pending) return pending;
  switch (state.phase) {
    case "executing":
      return NODE.execute;
    case "done":
      return NODE.deliver;
    case "waiting_confirm":
      // Not expected (execute sets `pending` with the tool); routed defensively as seed 003 does.
      return NODE.confirm;
    case "planning":
      return NODE.plan;
    case "chatting":
      return END;
  }
}

/** After ask_user: the answer goes back to the stage that asked. */
export function branchAfterAskUser(state: RoutingState): typeof NODE.plan | typeof NODE.execute | typeof END {
  switch (state.phase) {
    case "planning":
      return NODE.plan;
    case "executing":
      return NODE.execute;
    default:
      return END;
  }
}
