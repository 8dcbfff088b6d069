/**
 * `npm start`: Tempo in the terminal, on the demo's defaults — the settings
 * from the environment (`readSettings()`), so the embedded Postgres and the
 * offline policy unless DATABASE_URL or a model key / base URL is set.
 * Works on a terminal and on a pipe (lines from stdin; exits at its end).
 *
 *   npm start -- [--thread <id>] [--user <id>] [--threads-file <path>]
 */
import { createInterface } from "node:readline";
import { readSettings } from "../config/environment.js";
import { createTempo } from "../server/create-tempo.js";
import { CHAT_USAGE, parseChatArguments } from "./arguments.js";
import { LineReader } from "./line-reader.js";
import { renderError } from "./render.js";
import { readWeekFile, weekInTime } from "../tools/schedule/week-file.js";
import { exportCalendar as exportCalendarText } from "../tools/schedule/calendar-files.js";
import type { ScheduleRepository } from "../tools/schedule/index.js";
import { ChatSession } from "./session.js";
import { CHAT, tell } from "./chat-words.js";
import type { Language } from "../contracts/language.js";
import { chooseStartingThread } from "./starting-thread.js";
import { DEFAULT_THREADS_FILE, ThreadRegistry } from "./thread-registry.js";

async function main(): Promise<void> {
  const chatArguments = parseChatArguments(process.argv.slice(2));
  if (chatArguments.help) {
    console.log(CHAT_USAGE);
    return;
  }
  const settings = readSettings();
  // `--now` fixes the chat's clock (every run's configurable.now); else the clock itself.
  const fixedNow = chatArguments.now === undefined ? undefined : new Date(chatArguments.now);
  const now = () => fixedNow ?? new Date();
  const userId = chatArguments.userId ?? settings.userId;
  const write = (text: string) => void process.stdout.write(text);
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const lines = createInterface({ input: process.stdin, output: process.stdout, terminal: interactive });
  const input = new LineReader(lines, !interactive, write);
  // First Ctrl-C / SIGTERM ends the input (the chat closes cleanly after the current run); a second one exits at once.
  let interrupted = false;
  const stop = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    input.close();
  };
  lines.on("SIGINT", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  // The chat's language once a thread is read ("Bye." in it); the lines before it are English.
  let language: Language = "en";
  try {
    write("Tempo terminal chat — type a message, /help for commands.\n");
    const tempo = await createTempo(settings);
    try {
      for (const line of tempo.describe()) write(`  ${line}\n`);
      if (chatArguments.weekFile) {
        // Checked whole before anything is stored: a file with a problem changes nothing.
        const { state: week, moved } = weekInTime(await readWeekFile(chatArguments.weekFile), now());
        await tempo.repositoryOf<ScheduleRepository>("schedule").seed(userId, week);
        write(
          `  week: ${chatArguments.weekFile} (${week.window.totalDays} days, ${week.tasks.length} tasks) is now ${userId}'s schedule\n`,
        );
        if (moved)
          write(
            `  its days (${moved.from.first} to ${moved.from.last}) had all passed: moved ${moved.weeks} week(s) on, to ${moved.to.first} to ${moved.to.last}, each on the same weekday\n`,
          );
      }
      const registry = new ThreadRegistry(chatArguments.threadsFile ?? DEFAULT_THREADS_FILE);
      const start = await chooseStartingThread(tempo.graph, registry, userId, chatArguments.threadId);
      if (start.reason === "waiting") write(`${tell(start.language ?? "en", CHAT.reopening)}\n`);
      await registry.touch(start.threadId, userId, {}, now());
      // /export writes the user's week as iCalendar (a read of the schedule; no card).
      const exportCalendar = async (user: string) =>
        exportCalendarText(await tempo.repositoryOf<ScheduleRepository>("schedule").load(user));
      const session = new ChatSession({
        graph: tempo.graph,
        userId,
        threadId: start.threadId,
        registry,
        input,
        write,
        exportCalendar,
        verbose: chatArguments.verbose,
        // /week and the proposal under a write card: colour on a terminal that has it, plain on a pipe.
        loadSchedule: (user: string) => tempo.repositoryOf<ScheduleRepository>("schedule").load(user),
        weekView: {
          colour: Boolean(process.stdout.isTTY && process.stdout.hasColors?.() && !process.env.NO_COLOR),
          width: process.stdout.columns ?? 120,
          now,
        },
        ...(chatArguments.now === undefined ? {} : { now: chatArguments.now }),
      });
      await session.run();
      language = session.currentLanguage;
    } finally {
      await tempo.close();
    }
    write(`${tell(language, CHAT.bye)}\n`);
  } finally {
    lines.close();
    // Stop reading stdin, so an open pipe does not keep the process alive after /quit.
    process.stdin.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(renderError(error));
  process.exitCode = 1;
});
