/**
 * The terminal chat reads a command as the graph reads a message (`commandText`): a full-width slash ("／prefs", as a
 * Chinese input method types "/"), full-width letters, an invisible character or a direction mark around it. Before,
 * the chat's own parser took only a line starting with "/": "／prefs" or "\u200b/prefs" went to the graph, and with a
 * card waiting it was taken as the card's answer. A line of invisible characters alone is an empty line, as the graph
 * reads it (`isBlankText`): before, it was sent as a message, and a model was asked about nothing.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, beforeEach, expect, test } from "vitest";
import { isCommand, parseCommand } from "../../cli/commands.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { assertKnownCommand, commandText } from "../../kernel/commands.js";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { CountingPolicy, halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";
import { threadConfig } from "../support/scripted.js";
import { typedChat } from "./support/typed-chat.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-typed-commands-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const FORGET_USAGE = {
  name: "invalid",
  message: "Usage: /forget <number or id>. /prefs lists your standing preferences.",
};

test("the chat and the graph read one line the same way: a command, which one, or a message", () => {
  const rows: Array<[line: string, chat: unknown, graph: unknown]> = [
    ["／prefs", { name: "prefs" }, { name: "/prefs", args: [] }],
    ["／ｐｒｅｆｓ", { name: "prefs" }, { name: "/prefs", args: [] }],
    ["\u200f/prefs\u200e", { name: "prefs" }, { name: "/prefs", args: [] }],
    ["\u2067/PREFS\u2069 ", { name: "prefs" }, { name: "/prefs", args: [] }],
    ["\ufeff／forget　２", { name: "forget", reference: "２" }, { name: "/forget", args: ["２"] }],
    ["/forget \u200f1\u200e", { name: "forget", reference: "1" }, { name: "/forget", args: ["1"] }],
    ["/forget 1 2", FORGET_USAGE, /^Usage: \/forget <number or id>\./],
    ["/forget 1e3", { name: "forget", reference: "1e3" }, { name: "/forget", args: ["1e3"] }],
    ["/forget -1", { name: "forget", reference: "-1" }, { name: "/forget", args: ["-1"] }],
  ];
  for (const [line, chat, graph] of rows) {
    const label = JSON.stringify(line);
    expect(isCommand(line), label).toBe(true);
    expect(parseCommand(line), label).toEqual(chat);
    if (graph instanceof RegExp) expect(() => assertKnownCommand(commandText(line)!), label).toThrow(graph);
    else expect(assertKnownCommand(commandText(line)!), label).toEqual(graph);
  }
  // A message that starts with another slash-like character, or has a full-width slash further on, is a message.
  for (const line of [
    "⁄prefs",
    "∕prefs",
    "＼prefs",
    "ｐｒｅｆｓ／",
    "①/prefs",
    "never on Monday ／forget 1",
    "\u200b",
  ]) {
    expect(isCommand(line), JSON.stringify(line)).toBe(false);
    expect(commandText(line), JSON.stringify(line)).toBeUndefined();
  }
  // A long unknown name is said back in its first 40 characters, as the graph says it (before, the chat echoed it whole).
  expect(parseCommand(`/${"x".repeat(99_000)}`)).toEqual({
    name: "invalid",
    message: `Unknown command /${"x".repeat(39)}…. Type /help for the commands.`,
  });
  expect(() => assertKnownCommand(`/${"x".repeat(99_000)}`)).toThrow(`Unknown command /${"x".repeat(39)}…. Commands:`);
  // Only the command word is read by NFKC: a path keeps its zero-width non-joiner and its full-width letters.
  expect(parseCommand("／import  نامه\u200cها／ｗｅｅｋ.ics \u200b")).toEqual({
    name: "import",
    path: "نامه\u200cها／ｗｅｅｋ.ics",
  });
});

test("with a card waiting, /prefs and /forget typed with a Chinese input method or an invisible character run as commands", async () => {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  for (const [text, at] of [
    ["never on Monday", "2026-01-05T10:00:00.000Z"],
    ["nothing after 9pm", "2026-01-05T11:00:00.000Z"],
  ] as const)
    await applyPreferenceChange(store, "student", readSchedulePreferences(text), "stated", at);
  const output = await typedChat(
    ["move the vocabulary list to Friday", "a", "\u200b/prefs", "／forget　２", "\u200f／ＰＲＥＦＳ"],
    {
      graph: tempo.graph,
      userId: "student",
      threadId: "t-typed",
      registry: new ThreadRegistry(path.join(directory, "threads.json")),
    },
  );
  const after = output.slice(output.indexOf("choice> \u200b/prefs"));
  expect(after).toBe(
    [
      "choice> \u200b/prefs",
      "Your standing preferences:",
      "1. never on Monday — stated, 2026-01-05 [pref-1ab596a029]",
      "2. nothing after 9pm — stated, 2026-01-05 [pref-0152c1abe7]",
      "",
      "Remove one with /forget <number or id>.",
      "choice> ／forget　２",
      'Removed: "nothing after 9pm". The next task no longer keeps to it.',
      "choice> \u200f／ＰＲＥＦＳ",
      "Your standing preferences:",
      "1. never on Monday — stated, 2026-01-05 [pref-1ab596a029]",
      "",
      "Remove one with /forget <number or id>.",
      "",
      "Thread t-typed waits for your answer; continue with: npm start -- --thread t-typed",
      "",
    ].join("\n"),
  );
  expect((await loadPreferences(store, "student")).map((entry) => entry.text)).toEqual(["never on Monday"]);
});

test("a line of invisible characters is an empty line: nothing is sent, at the message prompt or at a card", async () => {
  const policy = new CountingPolicy();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store: new InMemoryStore(), policy });
  const registry = new ThreadRegistry(path.join(directory, "threads.json"));
  const options = { graph: tempo.graph, userId: "student", registry };
  // Zero-width space, joiner, byte-order mark, word joiner, Hangul filler, soft hyphen, a direction mark, a lone
  // variation selector, around spaces.
  const invisible = ["\u200b", "\u200d\ufeff\u2060", " \u3164 ", "\u00ad\u200e", "\ufe0f"];

  const output = await typedChat(invisible, { ...options, threadId: "t-blank" });
  expect(output).toBe(
    `Thread t-blank (user student): new\n${[...invisible, ""].map((line) => `you> ${line}\n`).join("")}`,
  );
  expect(policy.calls).toBe(0);
  expect((await tempo.graph.getState(threadConfig("t-blank", "student"))).values.messages ?? []).toEqual([]);
  expect((await registry.find("t-blank"))?.lastMessage).toBeUndefined();

  // At a card, too: no "answer with …", the card waits for a real answer.
  const atCard = await typedChat(["move the vocabulary list to Friday", ...invisible, "a"], {
    ...options,
    threadId: "t-blank-card",
  });
  expect(atCard).toContain(`${invisible.map((line) => `choice> ${line}\n`).join("")}choice> a\n  · Plan confirmed`);
});
