/**
 * Routing, derived from the transition table (`transitions.ts`). After a
 * node, a pending interaction goes to the node that raises its `interrupt()`
 * (docs/design.md#routing); otherwise the phase's serving node
 * (`PHASE_NODE`, the table's "served by" column). The destinations each
 * node may reach are the phases its events (`NODE_EVENTS`) lead to in the
 * table; a router asked to go anywhere else throws ILLEGAL_TRANSITION, so a
 * hole in the machine shows as a typed error, never as a silent loop.
 */
import { TempoError } from "../errors/index.js";
import type { Phase, TempoState } from "./state.js";
import { PHASES, TRANSITIONS, type WorkflowEvent } from "./transitions.js";

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
export type NodeName = (typeof NODE)[keyof typeof NODE];

/**
 * The node that serves each phase. `chatting` ends the invocation through memorize; `done` is an ended
 * task waiting for its answer (deliver, whose fixed edge then leads to memorize).
 */
export const PHASE_NODE: Readonly<Record<Phase, NodeName>> = {
  chatting: NODE.memorize,
  planning: NODE.plan,
  waiting_confirm: NODE.confirm,
  executing: NODE.execute,
  done: NODE.deliver,
};

/** The events each routed node may take (the transitions it calls). */
export const NODE_EVENTS = {
  [NODE.chat]: ["reply", "start_task", "plan_round", "resume_execution", "revise", "drop_task", "clear"],
  [NODE.plan]: ["plan_round", "ask", "await_confirmation", "resume_execution", "finish_task"],
  [NODE.confirm]: ["resume_execution", "revise", "drop_task"],
  [NODE.askUser]: ["answer", "revise", "drop_task"],
  [NODE.execute]: [
    "resume_execution",
    "finish_step",
    "fail_step",
    "finish_task",
    "replan",
    "await_confirmation",
    "ask",
  ],
} as const satisfies Record<string, readonly WorkflowEvent[]>;
export type RoutedNode = keyof typeof NODE_EVENTS;

/** The events that leave an interaction pending, and the node that raises it. */
const PENDING_EVENTS: Partial<Record<WorkflowEvent, NodeName>> = {
  ask: NODE.askUser,
  await_confirmation: NODE.confirm,
};

/** chat takes a plain message as the answer to a pending card: the card's node comes next. */
const KEEPS_PENDING: readonly RoutedNode[] = [NODE.chat];

/** Every node `node` may route to, derived from the table. */
export function destinationsAfter(node: RoutedNode): NodeName[] {
  const events: readonly WorkflowEvent[] = NODE_EVENTS[node];
  const destinations = new Set<NodeName>();
  for (const event of events) {
    const raises = PENDING_EVENTS[event];
    if (raises) destinations.add(raises);
    for (const phase of PHASES) {
      const next = TRANSITIONS[phase][event];
      if (next) destinations.add(PHASE_NODE[next]);
    }
  }
  if (KEEPS_PENDING.includes(node)) [NODE.confirm, NODE.askUser].forEach((pending) => destinations.add(pending));
  return [...destinations];
}

type RoutingState = Pick<TempoState, "phase" | "pending">;

/** The node that waits on the pending interaction, if any. */
function branchToPending(state: RoutingState): NodeName | undefined {
  if (!state.pending) return undefined;
  return state.pending.kind === "ask_user" ? NODE.askUser : NODE.confirm;
}

/** The router after `node`: the pending interaction first, otherwise the phase's node; only to a derived destination. */
function routerAfter(node: RoutedNode): (state: RoutingState) => NodeName {
  const allowed = new Set(destinationsAfter(node));
  return (state) => {
    const next = branchToPending(state) ?? PHASE_NODE[state.phase];
    if (!allowed.has(next)) {
      throw new TempoError(
        "ILLEGAL_TRANSITION",
        `After ${node}, phase "${state.phase}"${state.pending ? ` with a pending ${state.pending.kind}` : ""} leads to ${next}, which ${node} cannot reach. This is a bug in Tempo; the thread is kept at its last checkpoint.`,
        { node, phase: state.phase, next },
      );
    }
    return next;
  };
}

/** After chat: the card a plain message answers, a direct reply (memorize), or the task's stage. */
export const branchAfterChat = routerAfter(NODE.chat);
/** After plan: ask, confirm the plan, another round, execute (after a replan), or deliver (finished or failed). */
export const branchAfterPlan = routerAfter(NODE.plan);
/** After confirm: execute (accepted / a write answered), plan (revise), or memorize (dropped). */
export const branchAfterConfirm = routerAfter(NODE.confirm);
/** After ask_user: the answer goes back to the stage that asked. */
export const branchAfterAskUser = routerAfter(NODE.askUser);
/** After execute: loop, confirm a write, ask, replan, or deliver. */
export const branchAfterExecute = routerAfter(NODE.execute);
