/**
 * The state's delta channels: the fields whose checkpoints store only what a step wrote (LangGraph's
 * `DeltaChannel`, beta in @langchain/langgraph 1.7), with the names the checkpointer and retention need. A leaf
 * module: `checkpoints/` imports it without the state schema. See docs/design.md#persistence.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { isDeepStrictEqual } from "node:util";
import {
  BinaryOperatorAggregate,
  DeltaChannel,
  EmptyChannelError,
  messagesDeltaReducer,
  type Messages,
} from "@langchain/langgraph";
import type { PlanStep } from "./plan-step.js";
import { keptUiMessages, type UiWrite } from "./ui-channel.js";
import type { UIMessage } from "@langchain/langgraph-sdk/react-ui";

/** The state channel holding the plan (the saver compares its versions for step snapshots). */
export const PLAN_CHANNEL = "planSteps";

/**
 * Message-list writes between two full copies of the list in a checkpoint, at least. The list is a LangGraph
 * `DeltaChannel` (beta, @langchain/langgraph 1.7): a checkpoint stores only the messages a step wrote (in
 * `checkpoint_writes`), and every this-many writes one whole copy (a `DeltaSnapshot` blob); reading a checkpoint
 * replays the writes since the nearest copy. Higher: fewer bytes per turn, longer replays. A long list waits longer
 * (`MESSAGES_PER_SNAPSHOT_WRITE`).
 */
export const MESSAGES_SNAPSHOT_FREQUENCY = 50;

/**
 * Messages in the list per write between two whole copies, once the list is long: a list of n messages is copied
 * again after n / this-many writes (never fewer than `MESSAGES_SNAPSHOT_FREQUENCY`). With a fixed cadence each copy
 * grew with the thread and so did the bytes of every turn (a copy of the whole list every ~7 task turns: 63.7 KiB a
 * task turn over 30 turns, 79.5 over 200); with the cadence growing with the list, a copy's bytes are spread over
 * writes in proportion to its length, so a turn adds the same bytes on turn 200 as on turn 30, and a read replays at
 * most a quarter of the list's length in writes on top of the copy it reads anyway.
 */
export const MESSAGES_PER_SNAPSHOT_WRITE = 4;

/**
 * A `DeltaChannel` over a list whose whole copies come further apart as the list grows: after
 * `max(minimum, ceil(length / itemsPerWrite))` writes (LangGraph reads `snapshotFrequency` when it decides which
 * channels to copy into a checkpoint). Stored as a plain DeltaChannel: the same blobs and writes, read by any.
 */
export class GrowingSnapshotChannel<Item, Update> extends DeltaChannel<Item[], Update> {
  constructor(
    reducer: (current: Item[], writes: Update[]) => Item[],
    private readonly cadence: { minimum: number; itemsPerWrite: number; initialValueFactory?: () => Item[] },
  ) {
    super(reducer, { snapshotFrequency: cadence.minimum, initialValueFactory: cadence.initialValueFactory });
    Object.defineProperty(this, "snapshotFrequency", {
      get: () => Math.max(cadence.minimum, Math.ceil((this.value?.length ?? 0) / cadence.itemsPerWrite)),
      configurable: true,
      enumerable: true,
    });
  }

  /** The channel at a checkpoint's value: this class again (DeltaChannel's own returns a plain DeltaChannel). */
  override fromCheckpoint(checkpoint?: Parameters<DeltaChannel<Item[], Update>["fromCheckpoint"]>[0]): this {
    const restored = new GrowingSnapshotChannel<Item, Update>(this.reducer, this.cadence);
    restored.value = super.fromCheckpoint(checkpoint).value;
    return restored as this;
  }

  /** Equal to another channel of the same reducer and cadence (DeltaChannel's compares the varying frequency). */
  override equals(other: unknown): boolean {
    return (
      other === this ||
      (other instanceof GrowingSnapshotChannel &&
        other.reducer === this.reducer &&
        other.cadence.minimum === this.cadence.minimum &&
        other.cadence.itemsPerWrite === this.cadence.itemsPerWrite)
    );
  }
}

/** The message channel: `messagesDeltaReducer` (add / replace by id, `RemoveMessage`, remove all) over a DeltaChannel. */
export function messagesChannel() {
  return new GrowingSnapshotChannel<BaseMessage, Messages>(messagesDeltaReducer, {
    minimum: MESSAGES_SNAPSHOT_FREQUENCY,
    itemsPerWrite: MESSAGES_PER_SNAPSHOT_WRITE,
  });
}

/**
 * A write to the plan: the whole plan, or `{ steps }` — the steps whose content changed, each replacing the step
 * with its id (a status change writes one step, not the plan). Nodes return whole plans; `planWrite` turns one into
 * the smaller write where the steps are the same ones in the same order.
 */
export type PlanWrite<Step extends { id: string } = PlanStep> = Step[] | { steps: Step[] };

/** The plan's reducer: each write in order, a whole plan replacing it, changed steps replacing theirs by id. */
export function applyPlanWrites<Step extends { id: string }>(
  current: Step[],
  writes: readonly PlanWrite<Step>[],
): Step[] {
  return writes.reduce<Step[]>((plan, write) => {
    if (Array.isArray(write)) return write;
    const changed = new Map(write.steps.map((step) => [step.id, step]));
    return plan.map((step) => changed.get(step.id) ?? step);
  }, current);
}

/** The write that turns `current` into `next`: the changed steps when both hold the same step ids in order, else the whole plan. */
export function planWrite(current: readonly PlanStep[], next: PlanStep[]): PlanWrite {
  const sameSteps = current.length === next.length && current.every((step, index) => step.id === next[index]!.id);
  if (!sameSteps) return next;
  return { steps: next.filter((step, index) => !isDeepStrictEqual(step, current[index])) };
}

/** Plan writes between two whole copies of the plan in a checkpoint (see `planChannel`). */
export const PLAN_SNAPSHOT_FREQUENCY = 20;

/**
 * The plan channel over a `DeltaChannel`: the plan changes at every step transition; as a plain field each change
 * would be stored twice (the step's write and a blob row of the new version) and whole; as a delta channel only the
 * write is stored — the steps that changed (`PlanWrite`) — plus a whole copy every `PLAN_SNAPSHOT_FREQUENCY` writes.
 */
export function planChannel() {
  return new DeltaChannel<PlanStep[], PlanWrite>(applyPlanWrites, {
    snapshotFrequency: PLAN_SNAPSHOT_FREQUENCY,
    initialValueFactory: () => [],
  });
}

/** A write to the step workspace: the whole id list, or `{ append }` — ids added after the ones it holds. */
export type WorkspaceWrite = string[] | { append: string[] };

/** The workspace's reducer: each write in order, a whole list replacing it, appended ids added at its end. */
export function applyWorkspaceWrites(current: string[], writes: readonly WorkspaceWrite[]): string[] {
  return writes.reduce<string[]>((ids, write) => (Array.isArray(write) ? write : [...ids, ...write.append]), current);
}

/** The write that turns `current` into `next`: `{ append }` when `next` extends `current`, else the whole list. */
export function workspaceWrite(current: readonly string[], next: string[]): WorkspaceWrite {
  const extends_ = next.length > current.length && current.every((id, index) => id === next[index]);
  return extends_ ? { append: next.slice(current.length) } : next;
}

/** Workspace writes between two whole copies of it in a checkpoint (see `workspaceChannel`). */
export const WORKSPACE_SNAPSHOT_FREQUENCY = 20;

/**
 * The step workspace (ids of the current stage's messages) over a `DeltaChannel`: it grows by a round's messages at
 * every execute round and is emptied when a step ends. Stored as what each round appended (`{ append }`), plus a
 * whole copy every `WORKSPACE_SNAPSHOT_FREQUENCY` writes, instead of the whole growing list and a blob row per round.
 */
export function workspaceChannel() {
  return new DeltaChannel<string[], WorkspaceWrite>(applyWorkspaceWrites, {
    snapshotFrequency: WORKSPACE_SNAPSHOT_FREQUENCY,
    initialValueFactory: () => [],
  });
}

/** UI writes between two whole copies of the kept components in a checkpoint (see `uiChannel`). */
export const UI_SNAPSHOT_FREQUENCY = 20;

/**
 * The Generative UI components (`ui`, kernel/ui-channel.ts) over a `DeltaChannel`: a turn pushes, replaces and removes
 * a few (its status, a card's week, the answer's), each push a write of one component; as a plain field every change
 * stored the whole kept list again (several KiB of week props, three times a task turn). Stored as the pushes, plus a
 * whole copy every `UI_SNAPSHOT_FREQUENCY` writes; each write is folded on its own, so any batching reads the same.
 */
export function uiChannel() {
  return new DeltaChannel<UIMessage[], UiWrite>(
    (current, writes) => writes.reduce<UIMessage[]>(keptUiMessages, current),
    { snapshotFrequency: UI_SNAPSHOT_FREQUENCY, initialValueFactory: () => [] },
  );
}

/**
 * The delta channels whose writes can be smaller than the value a node returns, by name: the write that turns the
 * current value into the node's (`changedFields` stores that instead of the whole value).
 */
export const SMALLER_WRITES: Readonly<Record<string, (current: never, next: never) => unknown>> = {
  [PLAN_CHANNEL]: planWrite,
  workspaceMessageIds: workspaceWrite,
};

/** The state's delta channels, by name: retention rebuilds their values where it cuts a chain (`pruneCheckpoints`). */
export const DELTA_CHANNELS = {
  messages: messagesChannel,
  [PLAN_CHANNEL]: planChannel,
  workspaceMessageIds: workspaceChannel,
  ui: uiChannel,
} as const;

/**
 * A replace-on-write field whose default a checkpoint does not store: while it holds a value deep-equal to its
 * default, the channel saves no value (no blob row; LangGraph skips a channel with nothing to save), and a
 * checkpoint without one restores the default. For a field that goes back to its default by the end of every turn
 * (`recalled`, emptied by memorize): a turn moves its version on, and as a plain field each turn would store its
 * default again. A checkpoint that did store the default (saved before this channel) reads the same.
 */
export class DefaultNotStored<Value> extends BinaryOperatorAggregate<Value, Value> {
  constructor(private readonly initial: () => Value) {
    super((_current, next) => next, initial);
  }

  override fromCheckpoint(checkpoint?: Value): this {
    const restored = new DefaultNotStored<Value>(this.initial);
    restored.value = super.fromCheckpoint(checkpoint).value;
    return restored as this;
  }

  override checkpoint(): Value {
    const value = super.checkpoint();
    if (isDeepStrictEqual(value, this.initial())) throw new EmptyChannelError();
    return value;
  }

  override equals(other: unknown): boolean {
    return other === this || (other instanceof DefaultNotStored && other.initial === this.initial);
  }
}
