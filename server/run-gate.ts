/**
 * The run gate: at most `maxRuns` runs of this process compute at once, and at
 * most `maxRunsPerUser` of one user's; the others wait their turn, round-robin
 * by user, for at most `waitMs`, and past that are refused with SERVER_BUSY
 * before anything is written.
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
 * gives its turn back for that wait and takes a turn again, in order with every other run, before it goes on
 * (`RunSeat`, `withoutRunTurn`): a process keeps many more conversations going than it has connections, and still no
 * more compute at once than the pool has connections.
 *
 * Fair between users: first come first served, one user who starts runs on many threads at once took every turn, and
 * every other user's run waited behind the whole burst (up to `waitMs`, then SERVER_BUSY). Now one user computes at
 * most `maxRunsPerUser` runs at once (half the turns on the served and embedded gates, `TEMPO_MAX_RUNS_PER_USER`), so
 * a turn is left for another user's run when it comes; and each turn given back goes to the waiting user under their
 * cap who computes the fewest runs (round-robin among equals: a second user's run before a first user's fifth).
 * A run coming back from its model counts against its user's cap too, and waits without a bound, ahead of its user's
 * new runs: it cannot deadlock on the cap, because a run holds a turn only while it computes (never while it waits on
 * its model, its thread, or another run), so each turn its user holds is given back within a compute step, and the
 * next one freed under the cap goes to the user's runs already started, in order, so in turn to it.
 */
import { ServerBusyError } from "../errors/index.js";
import type { ModelWaitSeat } from "../models/run-turn.js";

/** A run's turn: give it back when the run ends. Safe to call twice. */
export type RunTurn = () => void;

/** The per-user cap of the served and embedded gates when none is set: half the turns, at least 1 (`TEMPO_MAX_RUNS_PER_USER`). */
export function defaultMaxRunsPerUser(maxRuns: number): number {
  return Math.max(1, Math.floor(maxRuns / 2));
}

/** A run waiting for a turn: `started` when it is a run coming back from its model (`enter` unbounded). */
interface Waiter {
  admit: () => void;
  started: boolean;
}

/** The user a run that names none waits as (every such run shares it). */
const NO_USER = "";

/**
 * A bounded gate of runs for one process, fair between users: at most `maxRuns` runs compute at once, and at most
 * `maxRunsPerUser` of one user's; the runs waiting for a turn are admitted the least busy user first, round-robin
 * among equals (in order within a user's own), so one user's burst of runs neither takes every turn nor keeps another user's run waiting behind it.
 */
export class RunGate {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /**
   * Each waiting user's runs: those already started (coming back from their model) first, then the new ones, each in
   * the order they asked; the map's order is the users' round-robin order.
   */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;
  /** Runs one user may compute at once (a whole number ≥ 1, at most `maxRuns`). */
  readonly maxRunsPerUser: number;

  /**
   * @param maxRuns runs computing at once (a whole number ≥ 1; the pool size by default in `createTempo`)
   * @param waitMs longest a run waits for its turn before SERVER_BUSY, in ms
   * @param maxRunsPerUser runs of one user computing at once (1 to `maxRuns`; `maxRuns` when not given: no cap of
   *   its own, the waiting runs still admitted round-robin by user; `createTempo` gives `defaultMaxRunsPerUser`)
   */
  constructor(
    readonly maxRuns: number,
    readonly waitMs: number,
    maxRunsPerUser = maxRuns,
  ) {
    this.maxRunsPerUser = Math.min(maxRuns, Math.max(1, maxRunsPerUser));
  }

  /** Runs computing now. */
  get active(): number {
    return this.running;
  }

  /** Runs waiting for a turn now. */
  get queued(): number {
    return this.waitingCount;
  }

  /** Runs of `user` computing now. */
  activeOf(user: string = NO_USER): number {
    return this.runningBy.get(user) ?? 0;
  }

  /**
   * Waits for a turn and returns it; ServerBusyError after `waitMs` without one — unless `bounded` is false (a run
   * that already started, coming back from its model: it waits for as long as the runs ahead compute). A run is
   * admitted at once while the gate and its user are under their caps; otherwise it waits, and each turn given back
   * goes to the waiting user under their cap who computes the fewest runs (round-robin among equals), to that user's
   * runs already started first, then their new ones, each in the order they asked.
   */
  async enter(user: string = NO_USER, { bounded = true }: { bounded?: boolean } = {}): Promise<RunTurn> {
    // Every turn given back is handed on at once (`handOn`): while runs wait, the gate is full or each waiting user
    // is at their cap, so a run that finds a free turn and its user under the cap takes it without passing anyone.
    if (this.running < this.maxRuns && this.activeOf(user) < this.maxRunsPerUser && !this.waiting.has(user)) {
      this.take(user);
      return this.turn(user);
    }
    const ahead = this.waitingCount;
    const atUserCap = this.activeOf(user) >= this.maxRunsPerUser;
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const refuse = () => {
        const queue = this.waiting.get(user) ?? [];
        const index = queue.findIndex((waiter) => waiter.admit === admit);
        if (index >= 0) {
          queue.splice(index, 1);
          this.waitingCount -= 1;
          if (queue.length === 0) this.waiting.delete(user);
        }
        const limit = atUserCap
          ? `${this.maxRunsPerUser} runs of this user at once (its limit per user, of ${this.maxRuns} in all)`
          : `${this.running} runs at once (its limit)`;
        reject(
          new ServerBusyError(
            `This Tempo process is running ${limit} and this one waited ${this.waitMs / 1000} s for a turn behind ${ahead} others; it was not started and nothing was written. ` +
              "Send it again in a moment; if this happens often, add workers, or raise TEMPO_MAX_RUNS with TEMPO_DB_POOL_SIZE, or TEMPO_RUN_QUEUE_WAIT.",
            { maxRuns: this.maxRuns, maxRunsPerUser: this.maxRunsPerUser, waitMs: this.waitMs, ahead },
          ),
        );
      };
      const timer = bounded ? setTimeout(refuse, this.waitMs) : undefined;
      const queue = this.waiting.get(user) ?? [];
      // A run already started goes before its user's new runs: finishing what it began holds its thread no longer.
      const behind = bounded ? queue.length : queue.findIndex((waiter) => !waiter.started);
      queue.splice(behind < 0 ? queue.length : behind, 0, { admit, started: !bounded });
      this.waiting.set(user, queue);
      this.waitingCount += 1;
    });
    // `handOn` counted the turn for this run before admitting it.
    return this.turn(user);
  }

  private take(user: string): void {
    this.running += 1;
    this.runningBy.set(user, this.activeOf(user) + 1);
  }

  private turn(user: string): RunTurn {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running -= 1;
      const left = this.activeOf(user) - 1;
      if (left > 0) this.runningBy.set(user, left);
      else this.runningBy.delete(user);
      this.handOn();
    };
  }

  /**
   * Gives the free turns to waiting runs: of the waiting users under their cap, the one computing the fewest runs
   * (the first in round-robin order among equals) gets one for their first waiting run, and goes to the back of the
   * order if they have more waiting.
   */
  private handOn(): void {
    while (this.running < this.maxRuns) {
      let next: string | undefined;
      for (const user of this.waiting.keys()) {
        const active = this.activeOf(user);
        if (active < this.maxRunsPerUser && (next === undefined || active < this.activeOf(next))) next = user;
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const { admit } = queue.shift()!;
      this.waitingCount -= 1;
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.take(next);
      admit();
    }
  }
}

/**
 * One run's turn at its gate, for the run's whole life: given back while the run waits on its model
 * (`withoutRunTurn`) and taken again, in its user's order, before the run goes on; given back for good when the run ends.
 */
export class RunSeat implements ModelWaitSeat {
  private turn?: RunTurn;
  /** The turn being taken again, while the run comes back from its model. */
  private coming?: Promise<void>;
  /** Calls of this run waiting on a model now. */
  private away = 0;
  private ended = false;

  /** `user`: the run's user, whose cap and round-robin place the turn taken again counts against. */
  constructor(
    private readonly gate: RunGate,
    turn: RunTurn,
    private readonly user?: string,
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
    this.coming ??= this.gate.enter(this.user, { bounded: false }).then((turn) => {
      this.coming = undefined;
      if (this.ended) turn();
      else this.turn = turn;
    });
    return this.coming;
  }
}
