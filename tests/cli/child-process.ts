/**
 * A script run as a child process through pipes (`node --import tsx <script>`), for
 * tests that type into it and read what it prints. `waitFor` reads forward
 * from where the last wait stopped, so a test can follow a conversation
 * prompt by prompt. The child runs in its own process group, and `stop()`
 * ends that group only.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { TSX_NODE_ARGS } from "../support/tsx.js";

/** Default time to wait for expected output, in ms. */
export const DEFAULT_WAIT_MS = 300_000;

/** A running script with piped stdin, stdout and stderr. */
export class ScriptProcess {
  /** Everything printed on stdout so far. */
  stdout = "";
  /** Everything printed on stderr so far. */
  stderr = "";
  /** Index in `stdout` where the next `waitFor` starts reading. */
  cursor = 0;
  private readonly exited: Promise<number | null>;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.notify();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) =>
      child.once("exit", (code) => {
        resolve(code);
        this.notify();
      }),
    );
  }

  /** Starts `node --import tsx <script> ...args` in `cwd` with `env`. */
  static start(
    script: string,
    args: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ): ScriptProcess {
    const child = spawn(process.execPath, [...TSX_NODE_ARGS, script, ...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: "pipe",
    });
    return new ScriptProcess(child);
  }

  /**
   * Starts `node --import tsx <script> ...args` in a pseudo-terminal (util-linux `script`), so the program sees a terminal on
   * its standard input and output (colour, the terminal's width) as a person's shell gives it.
   */
  static startInTerminal(
    script: string,
    args: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ): ScriptProcess {
    const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, ...TSX_NODE_ARGS, script, ...args].map(quote).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: options.cwd,
      env: { ...options.env, TERM: "xterm-256color" },
      detached: true,
      stdio: "pipe",
    });
    return new ScriptProcess(child);
  }

  /** True once the process has exited. */
  get done(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /**
   * Waits until `pattern` appears in stdout after the cursor, moves the
   * cursor past it, and returns the text from the old cursor to the end of
   * the match.
   */
  async waitFor(pattern: string | RegExp, timeoutMs = DEFAULT_WAIT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.stdout.slice(this.cursor);
      const found = typeof pattern === "string" ? indexOf(rest, pattern) : regexIndex(rest, pattern);
      if (found) {
        const text = rest.slice(0, found.end);
        this.cursor += found.end;
        return text;
      }
      if (this.done) throw new Error(`The process exited before printing ${String(pattern)}.\n${this.transcript()}`);
      if (Date.now() > deadline) throw new Error(`No ${String(pattern)} within ${timeoutMs} ms.\n${this.transcript()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 250);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.listeners.add(done);
      });
      this.listeners.clear();
    }
  }

  /** Types one line. */
  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Closes stdin (end of input). */
  endInput(): void {
    this.child.stdin.end();
  }

  /** Waits for the exit code (null when killed by a signal). */
  async exitCode(timeoutMs = DEFAULT_WAIT_MS): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`The process did not exit within ${timeoutMs} ms.\n${this.transcript()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the process group if still running: SIGTERM, then SIGKILL after 5 s. */
  async stop(): Promise<void> {
    if (this.done || this.child.pid === undefined) return;
    const group = -this.child.pid;
    signal(group, "SIGTERM");
    const killer = setTimeout(() => signal(group, "SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(killer);
  }

  /** What the process printed, for failure messages. */
  transcript(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function indexOf(text: string, needle: string): { end: number } | undefined {
  const at = text.indexOf(needle);
  return at === -1 ? undefined : { end: at + needle.length };
}

function regexIndex(text: string, pattern: RegExp): { end: number } | undefined {
  const match = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(text);
  return match ? { end: match.index + match[0].length } : undefined;
}

function signal(group: number, name: NodeJS.Signals): void {
  try {
    process.kill(group, name);
  } catch {
    // Already gone.
  }
}
