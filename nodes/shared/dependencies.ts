/** What the nodes are built with: injected, never read from the environment. */
import type { WorkflowSettings } from "../../config/configuration.js";
import type { StageModels } from "../../models/stage-models.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { ExecutionLog } from "../../tools/runner.js";
import type { WriteApprovals } from "../../review/approvals.js";
import type { WriteBatches } from "../../review/write-batches.js";

export interface NodeDependencies {
  models: StageModels;
  domain: ToolDomain;
  settings: WorkflowSettings;
  /** "graph@<graph version>/domain@<domain version>", recorded with each plan. */
  workflowVersion: string;
  /** Where tool calls are recorded, writes made exactly-once, and "was this write applied?" answered. */
  executionLog: ExecutionLog;
  /** The writes humans approved on their cards: confirm records them, execute applies only those. */
  approvals: WriteApprovals;
  /** The batches of approved writes applying now, by thread: one of a thread at a time (`review/apply.ts`). */
  writeBatches?: WriteBatches;
  /** The clock the stages' "now" is read from (`nodes/shared/now.ts`); the system clock when absent. */
  now?: () => Date;
}
