/**
 * Makes `@electric-sql/pglite-socket`'s query queue protocol-aware.
 *
 * The socket server multiplexes many client connections onto PGlite's one
 * session and queues their wire messages one by one. It keeps a client's
 * messages together inside a transaction, but not inside an extended-protocol
 * batch (Parse/Bind/Describe/Execute … Sync): two pool connections running
 * parameterised queries at once interleave, and one of them fails with
 * "unnamed prepared statement does not exist". This patch keeps a client's
 * batch together until its Sync (or a simple Query), as the transaction case
 * already does.
 */
import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
  onData: (data: Uint8Array) => void;
}

/** The queue's internals this patch works with (private fields of pglite-socket 0.2.x). */
interface QueryQueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  db: PGlite;
  lastHandlerId: number | null;
  processQueue: () => Promise<void>;
}

// Messages after which the server answers ReadyForQuery, ending a client's batch: Sync, simple Query,
// Terminate, and the startup message (it has no type byte; its first byte is the high byte of its length, 0).
const BATCH_END = new Set(["S".charCodeAt(0), "Q".charCodeAt(0), "X".charCodeAt(0), 0]);

/** Replaces the server's queue processing with one that never interleaves two clients' extended-protocol batches. */
export function makeQueueProtocolAware(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue?: QueryQueueInternals }).queryQueue;
  if (!queue || !Array.isArray(queue.queue) || typeof queue.processQueue !== "function") {
    throw new Error(
      "pglite-socket's query queue has an unexpected shape; check the installed @electric-sql/pglite-socket version (0.2.x expected).",
    );
  }
  let batchOpenFor: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueueInternals): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = batchOpenFor ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((queued) => queued.handlerId === owner);
        // The owner's next message has not arrived yet: wait for it (enqueue restarts processing).
        if (index === -1) break;
        const [queued] = this.queue.splice(index, 1);
        if (!queued) break;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(queued.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                queued.onData(data);
              },
            }),
          );
        } catch (error) {
          batchOpenFor = null;
          queued.reject(error as Error);
          continue;
        }
        const type = queued.message[0] ?? 0;
        batchOpenFor = BATCH_END.has(type) ? null : queued.handlerId;
        this.lastHandlerId = queued.handlerId;
        queued.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);

  // A client that disconnects mid-batch must not block the others.
  const clear = (queue as unknown as { clearQueueForHandler: (handlerId: number) => void }).clearQueueForHandler.bind(
    queue,
  );
  (queue as unknown as { clearQueueForHandler: (handlerId: number) => void }).clearQueueForHandler = (
    handlerId: number,
  ) => {
    if (batchOpenFor === handlerId) batchOpenFor = null;
    clear(handlerId);
    void queue.processQueue();
  };
}
