/**
 * The terminal chat's slash commands: parsing a typed line into a command,
 * and the help text that lists them.
 */

/** A slash command the chat understands, or an unknown / malformed one. */
export type ChatCommand =
  | { name: "clear" }
  | { name: "state" }
  | { name: "history" }
  | { name: "threads" }
  /** Draw the user's week as a grid. */
  | { name: "week" }
  /** Turn the debug view (tool names, ids, JSON arguments) on or off. */
  | { name: "debug" }
  | { name: "resume"; threadId: string }
  /** Send a local .ics file to be imported: a card comes first, nothing is stored without it. */
  | { name: "import"; path: string }
  /** Write the week as a local .ics file. */
  | { name: "export"; path: string }
  /** List the user's standing preferences, numbered. */
  | { name: "prefs" }
  /** Remove one standing preference, by its number in /prefs or its id. */
  | { name: "forget"; reference: string }
  | { name: "help" }
  | { name: "quit" }
  /** A slash command the chat does not know, or one used wrongly; `message` says what to do. */
  | { name: "invalid"; message: string };

/** What each command does, in the order /help lists them. */
export const COMMAND_HELP: ReadonlyArray<readonly [usage: string, description: string]> = [
  ["/clear", "start a fresh thread (your task summary is cleared; the old thread stays resumable)"],
  ["/state", "show this thread's execution state: goal, plan steps, tool calls, answer"],
  ["/history", "show the snapshots taken at each step transition"],
  ["/threads", "list your threads seen by this CLI"],
  ["/week", "draw your week: the timetable, your placed reviews by class, free time, and what has passed"],
  ["/resume <thread>", "switch to a thread (a waiting card is shown again)"],
  [
    "/import <file.ics>",
    "import a timetable from an iCalendar file (shown on a card first; nothing is stored until you approve)",
  ],
  ["/export <file.ics>", "write your week (timetable and placed reviews) to an iCalendar file"],
  ["/prefs", 'list your standing preferences ("never on Monday", "I prefer mornings"), numbered'],
  ["/forget <n|id>", "remove a standing preference by its number in /prefs or its id"],
  ["/debug", "turn the debug view on or off: tool names, ids and JSON arguments on tool lines and cards"],
  ["/help", "show this help"],
  ["/quit", "leave (also /exit, or end the input)"],
];

/** True when the line is a slash command rather than a message. */
export function isCommand(line: string): boolean {
  return line.trim().startsWith("/");
}

/** Parses a slash-command line. */
export function parseCommand(line: string): ChatCommand {
  const [head = "", ...rest] = line.trim().split(/\s+/);
  const name = head.toLowerCase();
  const argument = rest.join(" ");
  const noArgument = (command: ChatCommand): ChatCommand =>
    argument === "" ? command : { name: "invalid", message: `${head} takes no argument. Type /help for the commands.` };
  switch (name) {
    case "/clear":
      return noArgument({ name: "clear" });
    case "/state":
      return noArgument({ name: "state" });
    case "/week":
      return noArgument({ name: "week" });
    case "/debug":
      return noArgument({ name: "debug" });
    case "/history":
      return noArgument({ name: "history" });
    case "/threads":
      return noArgument({ name: "threads" });
    case "/help":
    case "/?":
      return noArgument({ name: "help" });
    case "/quit":
    case "/exit":
      return noArgument({ name: "quit" });
    case "/import":
    case "/export": {
      // The path is the rest of the line (it may hold spaces); quotes around it are dropped.
      const path = line
        .trim()
        .slice(head.length)
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2")
        .trim();
      if (path === "") return { name: "invalid", message: `Usage: ${name} <file.ics>.` };
      return { name: name === "/import" ? "import" : "export", path };
    }
    case "/prefs":
    case "/preferences":
      return noArgument({ name: "prefs" });
    case "/forget":
      if (rest.length !== 1)
        return { name: "invalid", message: "Usage: /forget <number or id>. /prefs lists your standing preferences." };
      return { name: "forget", reference: rest[0]! };
    case "/resume":
      if (rest.length !== 1)
        return { name: "invalid", message: "Usage: /resume <thread>. /threads lists your threads." };
      return { name: "resume", threadId: rest[0]! };
    default:
      return { name: "invalid", message: `Unknown command ${head}. Type /help for the commands.` };
  }
}
