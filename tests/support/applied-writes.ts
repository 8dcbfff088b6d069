/**
 * The one record of applied writes, whatever the domain: the execution log's completed, applied write entries, each
 * claimed in the transaction that applied its change (tools/runner.ts). `$1` is the user.
 */
export const APPLIED_WRITES_OF_USER_SQL =
  "SELECT tool_call_id AS apply_id FROM tempo_execution_log WHERE user_id = $1 AND kind = 'write' AND status = 'completed' AND applied ORDER BY tool_call_id";
