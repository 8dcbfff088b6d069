/**
 * The run gate: at most `maxRuns` runs of this process compute at once; the
 * others wait their turn in FIFO order, for at most `waitMs`, and past that
 * are refused with SERVER_BUSY before anything is written.
 *
 * Why: every run uses the process's connection pool (checkpoints, the
 * execution log, the domains' writes). Let 100 runs start at once on a pool of
 * 10 and they all queue for a connection at once, each bounded by the pool's
 * connect timeout — and while one run computes (the arrangement's search)
 * nothing is handed out, so runs fail with "timeout exceeded when trying to
 * connect" merely because the process is busy. Gated, the runs that hold a
 * turn are never more than the pool has connections, so a pool wait lasts a
 * query, and the runs without a turn wait here, in order, without a
 * connection and without a pool timeout (docs/operations.md#connection-plan).
 *
 * A run holds no connection while it waits on its model server (seconds, against milliseconds of computing), so it
 * gives its turn back for that wait and takes a turn again, in FIFO order with every other run, before it goes on
 * (`RunSeat`, `withoutRunTurn`): a process keeps many more conversations going than it has connections, and still no
 * more compute at once than the pool has connections.
 */
import { ServerBusyError } from "../errors/index.js";
import type { ModelWaitSeat } from "../models/run-turn.js";

/** A run's turn: give it back when the run ends. Safe to call twice. */
export type RunTurn = () => void;

/** A bounded FIFO of runs for one process. */
export class RunGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * @param maxRuns runs computing at once (a whole number ≥ 1; the pool size by default in `createTempo`)
   * @param waitMs longest a run waits for its turn before SERVER_BUSY, in ms
   */
  constructor(
    readonly maxRuns: number,
    readonly waitMs: number,
  ) {}

  /** Runs computing now. */
  get active(): number {
    return this.running;
  }

  /** Runs waiting for a turn now. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Waits for a turn (FIFO) and returns it; ServerBusyError after `waitMs` without one — unless `bounded` is false
   * (a run that already started, coming back from its model: it waits for as long as the runs ahead compute).
   */
  async enter(bounded = true): Promise<RunTurn> {
    if (this.running < this.maxRuns && this.waiting.length === 0) {
      this.running += 1;
      return this.turn();
    }
    const ahead = this.waiting.length;
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const refuse = () => {
        const index = this.waiting.indexOf(admit);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(
          new ServerBusyError(
            `This Tempo process is running ${this.running} runs at once (its limit) and this one waited ${this.waitMs / 1000} s for a turn behind ${ahead} others; it was not started and nothing was written. ` +
              "Send it again in a moment; if this happens often, add workers, or raise TEMPO_MAX_RUNS with TEMPO_DB_POOL_SIZE, or TEMPO_RUN_QUEUE_WAIT.",
            { maxRuns: this.maxRuns, waitMs: this.waitMs, ahead },
          ),
        );
      };
      const timer = bounded ? setTimeout(refuse, this.waitMs) : undefined;
      this.waiting.push(admit);
    });
    // The run that ended handed its turn over without giving it back (`running` unchanged).
    return this.turn();
  }

  private turn(): RunTurn {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}

/**
 * One run's turn at its gate, for the run's whole life: given back while the run waits on its model
 * (`withoutRunTurn`) and taken again, in FIFO order, before the run goes on; given back for good when the run ends.
 */
export class RunSeat implements ModelWaitSeat {
  private turn?: RunTurn;
  /** The turn being taken again, while the run comes back from its model. */
  private coming?: Promise<void>;
  /** Calls of this run waiting on a model now. */
  private away = 0;
  private ended = false;

  constructor(
    private readonly gate: RunGate,
    turn: RunTurn,
  ) {
    this.turn = turn;
  }

  /**
   * Runs `wait` (a call to the model server) without the run's turn, then waits for a turn before returning. Only
   * the first of overlapping calls gives the turn back: a call that comes back while another is still away takes a
   * turn again, and the run keeps it for calls it starts meanwhile.
   */
  async without<T>(wait: () => Promise<T>): Promise<T> {
    this.away += 1;
    if (this.away === 1) this.giveBack();
    try {
      return await wait();
    } finally {
      this.away -= 1;
      await this.takeAgain();
    }
  }

  /** The run ended: its turn is given back for good (one taken again later is given back at once). Safe to call twice. */
  end(): void {
    this.ended = true;
    this.giveBack();
  }

  private giveBack(): void {
    const turn = this.turn;
    this.turn = undefined;
    turn?.();
  }

  private takeAgain(): Promise<void> {
    if (this.turn || this.ended) return Promise.resolve();
    this.coming ??= this.gate.enter(false).then((turn) => {
      this.coming = undefined;
      if (this.ended) turn();
      else this.turn = turn;
    });
    return this.coming;
  }
}
