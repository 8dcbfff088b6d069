/** Slash commands and command-line flags. */
import { describe, expect, test } from "vitest";
import { ChatUsageError, parseChatArguments } from "../../cli/arguments.js";
import { parseCommand } from "../../cli/commands.js";
import * as chatWords from "../../cli/chat-words.js";

describe("commands and flags", () => {
  test("slash commands parse; unknown ones and misuse say what to do", () => {
    expect(parseCommand("/state")).toEqual({ name: "state" });
    expect(parseCommand("/EXIT")).toEqual({ name: "quit" });
    expect(parseCommand("/resume t-9")).toEqual({ name: "resume", threadId: "t-9" });
    expect(parseCommand("/resume")).toEqual({
      name: "invalid",
      message: "Usage: /resume <thread>. /threads lists your threads.",
    });
    expect(parseCommand("/state now")).toEqual({
      name: "invalid",
      message: "/state takes no argument. Type /help for the commands.",
    });
    expect(parseCommand("/prefs")).toEqual({ name: "prefs" });
    expect(parseCommand("/preferences")).toEqual({ name: "prefs" });
    expect(parseCommand("/forget 2")).toEqual({ name: "forget", reference: "2" });
    expect(parseCommand("/forget pref-1ab596a029")).toEqual({ name: "forget", reference: "pref-1ab596a029" });
    expect(parseCommand("/forget")).toEqual({
      name: "invalid",
      message: "Usage: /forget <number or id>. /prefs lists your standing preferences.",
    });
    expect(parseCommand("/prefs all")).toEqual({
      name: "invalid",
      message: "/prefs takes no argument. Type /help for the commands.",
    });
    expect(parseCommand("/nope")).toEqual({
      name: "invalid",
      message: "Unknown command /nope. Type /help for the commands.",
    });
  });

  test("/import and /export take a path: the rest of the line, spaces kept, quotes dropped; none says how to use them", () => {
    expect(parseCommand("/import week.ics")).toEqual({ name: "import", path: "week.ics" });
    expect(parseCommand("/import  my files/spring  term.ics ")).toEqual({
      name: "import",
      path: "my files/spring  term.ics",
    });
    expect(parseCommand('/IMPORT "a b.ics"')).toEqual({ name: "import", path: "a b.ics" });
    expect(parseCommand("/export out/week.ics")).toEqual({ name: "export", path: "out/week.ics" });
    expect(parseCommand("/debug")).toEqual({ name: "debug" });
    expect(parseCommand("/import")).toEqual({ name: "invalid", message: "Usage: /import <file.ics>." });
    expect(parseCommand("/export ''")).toEqual({ name: "invalid", message: "Usage: /export <file.ics>." });
  });

  test("flags take a value, separate or after =", () => {
    expect(parseChatArguments(["--thread", "t1", "--user=bob"])).toEqual({
      help: false,
      verbose: false,
      threadId: "t1",
      userId: "bob",
    });
    expect(parseChatArguments(["--help"])).toEqual({ help: true, verbose: false });
    expect(parseChatArguments(["--verbose", "--thread", "t2"])).toEqual({ help: false, verbose: true, threadId: "t2" });
    expect(() => parseChatArguments(["--thread"])).toThrow(ChatUsageError);
    expect(() => parseChatArguments(["--thread", "--user", "x"])).toThrow("--thread needs a value.");
    expect(() => parseChatArguments(["--loud"])).toThrow("Unknown argument --loud.");
  });
});

/** Every string of a table of the chat's words (a function's, with sample arguments), in both languages. */
function wordsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") {
    try {
      return wordsOf((value as (...args: unknown[]) => unknown)("t-1", "u-1", "s", "g", 1));
    } catch {
      return [];
    }
  }
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(wordsOf);
  return [];
}

test("every command the chat's words name is one it understands", () => {
  // The /state line of a stopped run offered "/continue", which is no command ("Unknown command /continue").
  const named = new Set(
    Object.values(chatWords)
      .flatMap(wordsOf)
      .flatMap((text) => [...text.matchAll(/(?<![\w./<])\/([a-z]+)\b/g)].map((found) => `/${found[1]}`)),
  );
  named.delete("/command"); // "(or a /command)": any command
  expect(named.size).toBeGreaterThanOrEqual(8);
  const unknown = [...named].filter((command) =>
    /^Unknown command/.test(String(Reflect.get(parseCommand(command), "message") ?? "")),
  );
  expect(unknown).toEqual([]);
});
