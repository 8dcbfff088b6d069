/**
 * One batch of approved writes of a thread applying at a time in this process (`review/apply.ts` runs each batch
 * through it; the run guard holds a thread until its batch stops).
 */

/**
 * The batches of approved writes applying now in this process, by thread. A run's batch goes on after its run was
 * cancelled — LangGraph rejects the aborted run at once but cannot stop the node — until its next write boundary
 * (`applyApprovedWrites`); the run that comes next on the thread (the server starts it as soon as the cancel is
 * recorded; a multitask `interrupt` starts it at once) would apply the same batch beside it. So a batch waits for the
 * thread's batch before it to stop, then reads the log: the cancelled run's writes are, by then, applied or recorded
 * as cancelled. Another process's batch is not seen here; there each write still applies once (its claim).
 */
export class WriteBatches {
  private readonly applying = new Map<string, Promise<void>>();

  /** Resolves once the batch applying on `threadId` when called (if any) has stopped. */
  async settled(threadId: string): Promise<void> {
    await this.applying.get(threadId);
  }

  /** Runs `apply` as the batch of `threadId`, after the batch before it on that thread stopped. */
  async run<T>(threadId: string, apply: () => Promise<T>): Promise<T> {
    while (this.applying.has(threadId)) await this.settled(threadId);
    let stopped!: () => void;
    const batch = new Promise<void>((resolve) => (stopped = resolve));
    this.applying.set(threadId, batch);
    try {
      return await apply();
    } finally {
      this.applying.delete(threadId);
      stopped();
    }
  }
}
