/**
 * The chat loop run in-process with lines typed ahead, as on a pipe: what it printed. The session's other options
 * (the graph, the thread, what the chat may read) come from the test.
 */
import { createInterface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import { LineReader } from "../../../cli/line-reader.js";
import { ChatSession, type ChatSessionOptions } from "../../../cli/session.js";

export async function typedChat(
  lines: readonly string[],
  options: Omit<ChatSessionOptions, "input" | "write">,
): Promise<string> {
  let output = "";
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
  const stdin = new PassThrough();
  const input = new LineReader(
    createInterface({ input: stdin, output: sink, terminal: false }),
    true,
    (text) => (output += text),
  );
  stdin.end([...lines, ""].join("\n"));
  await new ChatSession({ ...options, input, write: (text) => (output += text) }).run();
  return output;
}
