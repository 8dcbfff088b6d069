/**
 * A run's seat at its process's gate, as the model call sees it (server/run-gate.ts `RunSeat` is the one there is): a
 * wait on the model server needs no connection, so the run gives its turn back for the wait and takes a turn again
 * before it goes on. The seat is kept for the run's whole life in an AsyncLocalStorage, set by the server's guard
 * (`withRunSeat`) and read by the model call (`withoutRunTurn`); it lives here, below the server, so the model call
 * never imports the server edge.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What the model call needs of a run's seat: run a wait on the model without the run's turn. */
export interface ModelWaitSeat {
  without<T>(wait: () => Promise<T>): Promise<T>;
}

/** The seat of the run whose code is running (set for the whole run by `withRunSeat`). */
const runSeats = new AsyncLocalStorage<ModelWaitSeat>();

/** Runs `start` (a run's graph stream, and everything it goes on to do) with `seat` as the run's seat; no seat, as it is. */
export function withRunSeat<T>(seat: ModelWaitSeat | undefined, start: () => T): T {
  return seat ? runSeats.run(seat, start) : start();
}

/**
 * Runs `wait` — a wait on the model server, which needs no connection — without the current run's turn, and takes a
 * turn again before returning (`RunSeat.without`). Outside a gated run, just runs it.
 */
export function withoutRunTurn<T>(wait: () => Promise<T>): Promise<T> {
  const seat = runSeats.getStore();
  return seat ? seat.without(wait) : wait();
}
