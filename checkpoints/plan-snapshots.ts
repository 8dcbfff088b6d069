/**
 * Step snapshots (tempo-saver.ts, point 1). A checkpoint whose plan (`planSteps` channel) has a step that became
 * running, done or failed since its parent checkpoint gets `metadata.tempo_step`. Only when the plan channel has a new
 * version are the two plans compared: the parent's (remembered from this process's previous save, or rebuilt from
 * the parent chain) and the new one (the checkpoint's stored copy, or the plan the step wrote at the parent, which
 * LangGraph stores before it saves the checkpoint of a delta channel). The plan may be a plain channel or a delta
 * channel (Tempo's is one: `kernel/channels.ts`).
 */
import { isDeltaSnapshot, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { Checkpoint, CheckpointMetadata } from "@langchain/langgraph";
import type pg from "pg";

import { applyPlanWrites, PLAN_CHANNEL, type PlanWrite } from "../kernel/channels.js";
import { channelHistory } from "./delta-history.js";
import { keyOf, remember, type CheckpointRef, type SaverTables } from "./refs.js";
import { asPlanSteps, STEP_SNAPSHOT_METADATA_KEY, stepSnapshotMarker } from "./step-transitions.js";

type Plan = ReturnType<typeof asPlanSteps>;

/** The plans of this process's recent saves, and the step-snapshot metadata of the next one. */
export class PlanSnapshots {
  /** The plan at checkpoints this process saved (recent ones), by key: the parent plan of the next save, unread. */
  private readonly plans = new Map<string, Plan>();

  /** `serde` is the saver's serializer, read when a plan is loaded. */
  constructor(
    private readonly db: pg.Pool,
    private readonly tables: SaverTables,
    private readonly serde: () => SerializerProtocol,
  ) {}

  /** `metadata` for the checkpoint `ref` saved on top of `parentRef`, with its step-snapshot marker when it has one. */
  async metadataFor(
    ref: CheckpointRef,
    parentRef: CheckpointRef | undefined,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
  ): Promise<CheckpointMetadata> {
    let fullMetadata = metadata;
    if (Object.prototype.hasOwnProperty.call(newVersions, PLAN_CHANNEL)) {
      const before = parentRef ? await this.planAt(parentRef) : [];
      const stored = checkpoint.channel_values[PLAN_CHANNEL];
      const after =
        stored !== undefined ? planOf(stored) : parentRef ? await this.planAfterWrites(parentRef, before) : [];
      remember(this.plans, keyOf(ref), after);
      const marker = stepSnapshotMarker(before, after);
      if (marker) fullMetadata = { ...metadata, [STEP_SNAPSHOT_METADATA_KEY]: marker } as CheckpointMetadata;
    } else {
      const unchanged = parentRef && this.plans.get(keyOf(parentRef));
      if (unchanged) remember(this.plans, keyOf(ref), unchanged);
    }
    return fullMetadata;
  }

  /** The plan at checkpoint `ref`: remembered from this process's save, or its stored copy and the plan writes after it on its parent chain. */
  private async planAt(ref: CheckpointRef): Promise<Plan> {
    const remembered = this.plans.get(keyOf(ref));
    if (remembered) return remembered;
    const history = await channelHistory(this.db, this.tables, this.serde(), ref, PLAN_CHANNEL, true);
    return applyPlanWrites(
      planOf(history.seed),
      history.writes.map(([, , write]) => write as PlanWrite<Plan[number]>),
    );
  }

  /** The plan after the writes of the step that runs from checkpoint `ref` (stored under `ref`), applied to `before`, the plan at `ref`. */
  private async planAfterWrites(ref: CheckpointRef, before: Plan): Promise<Plan> {
    const result = await this.db.query<{ type: string; blob: Buffer | null }>(
      `SELECT type, blob FROM ${this.tables.writes}
        WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND channel = $4
        ORDER BY task_id, idx`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId, PLAN_CHANNEL],
    );
    const writes: PlanWrite<Plan[number]>[] = [];
    for (const row of result.rows)
      if (row.blob)
        writes.push((await this.serde().loadsTyped(row.type, new Uint8Array(row.blob))) as PlanWrite<Plan[number]>);
    return applyPlanWrites(before, writes);
  }
}

/** A stored plan value as steps: a plain value, or a delta channel's whole copy (`DeltaSnapshot`). */
function planOf(value: unknown): Plan {
  return asPlanSteps(isDeltaSnapshot(value) ? value.value : value);
}
