/**
 * Lines from stdin, one at a time, for a terminal or a pipe. node:readline
 * delivers lines as events, whether or not anyone is waiting; this queue
 * keeps the ones that arrive while the chat is busy (a piped script types
 * ahead), and answers `null` once the input has ended.
 */
import type { Interface } from "node:readline";

/** Reads prompted lines from a readline interface. */
export class LineReader {
  private readonly queued: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private ended = false;

  /**
   * @param lines the readline interface over the input
   * @param echo write each line read after its prompt (for piped input, so the output reads as a transcript)
   * @param write where echoes (and prompts after the input ended) go
   */
  constructor(
    private readonly lines: Interface,
    private readonly echo: boolean,
    private readonly write: (text: string) => void,
  ) {
    lines.on("line", (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else {
        this.queued.push(line);
      }
    });
    lines.on("close", () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = undefined;
    });
  }

  /** Shows `prompt` and resolves with the next line, or null when the input has ended. */
  async read(prompt: string): Promise<string | null> {
    if (!this.ended) {
      // Through readline, so a terminal redraws the prompt while the line is edited.
      this.lines.setPrompt(prompt);
      this.lines.prompt();
    } else if (this.queued.length > 0) {
      this.write(prompt);
    }
    const line =
      this.queued.shift() ??
      (this.ended ? null : await new Promise<string | null>((resolve) => (this.waiting = resolve)));
    if (this.echo) this.write(line === null ? "\n" : `${line}\n`);
    return line;
  }

  /** Ends the input: a pending and every later `read` resolves with null. */
  close(): void {
    this.lines.close();
  }
}
