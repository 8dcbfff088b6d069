/**
 * A write as it applied (issue 47: "undo that" reverses the last applied card's writes). The kernel reads them back
 * from a thread's messages (`kernel/applied-writes.ts`) and a domain offers their inverse (`ToolDomain.withLastChange`).
 */

/** A write as it applied: its tool, its arguments, and its structured result (`ToolRun.data`, when it gave one). */
export interface AppliedWrite {
  name: string;
  arguments: Record<string, unknown>;
  /** Absent for a write answered from the execution log (a resume after a crash). */
  data?: unknown;
  /**
   * The tool that listed the candidate whose writes the card was (chosen with `choose_candidate`), when it was one:
   * `propose_undo` for an undo's card, so that the undo of it is known as the undo of an undo.
   */
  chosenFrom?: string;
}
