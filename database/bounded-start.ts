/**
 * A deadline for a multi-step start (the embedded server's): each step either settles before the deadline or the
 * start fails at once with `DatabaseTimeoutError` naming the step that did not finish. The step itself cannot be
 * cancelled, so whatever it yields late is handed to a clean-up instead of being leaked (a PGlite that opens after
 * its caller gave up is closed, a lock taken late is released).
 */
import { DatabaseTimeoutError } from "../errors/index.js";

/** What the timeout error says besides the step: the thing being started, and what to do. */
export type StartDeadlineText = {
  /** What was starting, e.g. "The embedded database in /data". */
  subject: string;
  /** What the user can do, appended to the message. */
  advice: string;
  /** Extra fields of the error's details. */
  details?: Record<string, unknown>;
};

/** A start's deadline: run each step through `step`. */
export type StartDeadline = {
  /**
   * `work`, or a `DatabaseTimeoutError` naming `name` once the deadline passes first. When `work` settles after the
   * deadline, `lateCleanUp` runs with its value (undefined if it failed): the caller has given up on it by then.
   */
  step<T>(name: string, work: Promise<T>, lateCleanUp?: (value: T | undefined) => unknown): Promise<T>;
};

/** A deadline `timeoutMs` from now; `timeoutMs` must be a positive whole number. */
export function startDeadline(timeoutMs: number, text: StartDeadlineText): StartDeadline {
  const deadline = Date.now() + timeoutMs;
  return {
    async step<T>(name: string, work: Promise<T>, lateCleanUp?: (value: T | undefined) => unknown): Promise<T> {
      // Whichever ends first decides, once: a step that ended just before its timer fired is the caller's, never cleaned up.
      let first: "work" | "deadline" | undefined;
      const settled = work.then(
        (value) => ((first ??= "work"), value),
        (error: unknown) => {
          first ??= "work";
          throw error;
        },
      );
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            if (first !== undefined) return;
            first = "deadline";
            reject(
              new DatabaseTimeoutError(
                `${text.subject} did not start within ${formatMs(timeoutMs)}: ${name} did not finish. ${text.advice}`,
                { ...text.details, step: name, timeoutMs },
              ),
            );
          },
          Math.max(0, deadline - Date.now()),
        );
      });
      try {
        return await Promise.race([settled, timeout]);
      } finally {
        clearTimeout(timer);
        if (first === "deadline" && lateCleanUp) {
          const cleanUp = (value: T | undefined) =>
            Promise.resolve()
              .then(() => lateCleanUp(value))
              .catch(() => undefined);
          void work.then(cleanUp, () => cleanUp(undefined));
        }
      }
    },
  };
}

function formatMs(ms: number): string {
  return ms >= 1_000 && ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`;
}
