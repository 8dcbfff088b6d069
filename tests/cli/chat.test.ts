/**
 * The terminal chat driven through a pipe, as a child process (`node --import tsx
 * cli/chat.ts`), on an embedded Postgres this test starts, with the offline
 * policy: a whole task with a rejected and accepted writes, the commands,
 * then restarts that reopen an interrupted thread from its saved state.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEmbeddedTestPostgres, type TestPostgres } from "../support/postgres.js";
import { ScriptProcess } from "./child-process.js";
import { SEMINAR_CALENDAR } from "../support/calendars.js";

const USER = "cli-student";
const TASK = "Help me arrange next week's review sessions.";

let postgres: TestPostgres;
let directory: string;
const processes: ScriptProcess[] = [];

beforeAll(async () => {
  postgres = await startEmbeddedTestPostgres();
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-cli-"));
});

afterAll(async () => {
  await Promise.all(processes.map((child) => child.stop()));
  await postgres?.stop();
  if (directory) await fs.rm(directory, { recursive: true, force: true });
});

/** Starts the chat on the test database with the offline policy, its thread list in the test's directory. */
function startChat(...args: string[]): ScriptProcess {
  return startChatServing("schedule", ...args);
}

/**
 * The chat's clock unless a test gives its own `--now`: a Monday afternoon of the sample week's coming week. On the
 * real clock what is placeable moves with the time of day, and a refinement that found nothing to change at 13:40
 * found a move at 14:02 (the 14:00 slot had passed).
 */
const CHAT_TEST_NOW = "2026-11-30T13:40:00+08:00";

/** The chat as `startChat` starts it, serving the domains `domains` names (TEMPO_DOMAINS). */
function startChatServing(domains: string, ...args: string[]): ScriptProcess {
  const clock = args.includes("--now") ? [] : ["--now", CHAT_TEST_NOW];
  const child = ScriptProcess.start(
    "cli/chat.ts",
    ["--user", USER, "--threads-file", path.join(directory, "threads.json"), ...clock, ...args],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        DATABASE_URL: postgres.url,
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        TEMPO_USER_ID: "",
        TEMPO_DOMAINS: domains,
      },
    },
  );
  processes.push(child);
  return child;
}

test("a task through a pipe: plan accepted, a write rejected with feedback, the rest accepted, the refinement finding nothing to change, delivered; then the commands", async () => {
  // The debug view: the tool lines and cards with tool names, ids and JSON arguments, which this test reads.
  const chat = startChat("--thread", "cli-first", "--verbose");
  await chat.waitFor("you> ");
  chat.send(TASK);

  // The plan arrives as a numbered card.
  const planned = await chat.waitFor("choice> ");
  expect(planned).toContain("· Planning");
  expect(planned).toMatch(
    /┌─ Plan\n│ Plan for: Help me arrange next week's review sessions\.\n│ 1\. Place each pending review task.*\n│ {4}done when: .*\n│ 2\. Refine the week: .*\n│ {4}done when: .*\n│ 3\. Verify the schedule/,
  );
  expect(planned).toContain("└─ a approve / e edit the steps / r reject with feedback / i ignore (reject without)");
  chat.send("a");

  // The week's writes on one batch card: each change naming the task, the weekday and the slots, with its arguments;
  // then why and where execution stands. The first is rejected with feedback, the others accepted.
  const batch = await chat.waitFor("choice> ");
  expect(batch).toContain("· Plan confirmed");
  // The backend's arrangement, asked for once (the overview is in the prompts' live state: no get_overview call, and
  // nothing searched by hand).
  expect(batch).toContain("→ propose_arrangement {");
  expect(batch).not.toMatch(/→ (get_overview|list_tasks|find_free) /);
  const writes = Number(/┌─ Confirm (\d+) writes/.exec(batch)?.[1]);
  expect(writes).toBeGreaterThanOrEqual(2);
  expect(batch).toMatch(
    /┌─ Confirm \d+ writes\n│ \d+ changes proposed together:\n│ 1\. Place "[^"]+" on (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec), \d\d:\d\d–\d\d:\d\d\n│ {4}arguments: \{"task_id":"([\w-]+)"/,
  );
  expect(batch).toMatch(
    /│ Why: .+\n│ Step 1 of 3: Place each pending review task into a free slot that fits it\n└─ a accept all \/ r reject all with feedback \/ i ignore all \(reject without\) — or one letter per change/,
  );
  const [rejectedTask, ...accepted] = [...batch.matchAll(/arguments: \{"task_id":"([\w-]+)"/g)].map(
    (match) => match[1],
  );
  expect(accepted).toHaveLength(writes - 1);
  chat.send(["r", ...accepted.map(() => "a")].join(" "));
  await chat.waitFor("feedback 1> ");
  chat.send("not that one, it can wait");

  // The refinement step (on by default after arranging): the code lists the backend's candidates — moves and swaps of
  // what is placed, so never the rejected task, which stays pending — and finds none that raises the score of the
  // placements just polished: no card, the step ends, the summary is delivered and the chat waits.
  const conversationEnd = await chat.waitFor("you> ");
  expect(conversationEnd).toContain(
    "✗ Not applied: the user rejected this change. Their feedback: not that one, it can wait",
  );
  for (const task of accepted) expect(conversationEnd).toContain(`← placed task ${task} on day`);
  expect(conversationEnd).not.toContain(`← placed task ${rejectedTask} `);
  expect(conversationEnd).toContain(
    "· Executing step 2 of 3: Refine the week: choose the backend's best changes until none helps",
  );
  const conversation = chat.stdout;
  expect(conversation).not.toMatch(/┌─ Confirm write:/);
  // The listing keeps to the task's decisions (issue 46): never the rejected place again, and only what this task
  // placed may move (`task_ids`).
  const listings = conversation.match(/→ propose_candidates [^\n]*/g) ?? [];
  expect(listings).toHaveLength(1);
  const listed = JSON.parse(listings[0]!.replace("→ propose_candidates ", "")) as {
    k: number;
    place_pending: boolean;
    avoid: Array<{ task_id: string }>;
    task_ids: string[];
  };
  expect(listed).toMatchObject({ k: 3, place_pending: false });
  expect(listed.avoid.map((place) => place.task_id)).toEqual([rejectedTask]);
  expect(listed.task_ids.sort()).toEqual([...accepted].sort());
  expect(conversation).toMatch(
    /- \[done\] Refine the week: .* — nothing to refine: health score [\d.]+; stopped: no change raises the score any more/,
  );
  expect(conversation).toContain("· Executing step 3 of 3: Verify the schedule");
  // The rejected review is still pending: the task is told as partial, naming it and why.
  expect(conversation).toContain("tempo> Your review week is partly arranged: 1 review task(s) are still pending.");
  expect(conversation).toContain(`(${rejectedTask}) — you declined the proposed change`);
  expect(conversation).not.toContain("Your review week is arranged.");

  chat.send("/state");
  const state = await chat.waitFor("you> ");
  expect(state).toContain(`thread:  cli-first (user ${USER})`);
  expect(state).toContain("status:  partial");
  expect(state).toContain(`goal:    ${TASK}`);
  expect(state).toMatch(
    / {2}1\. \[done\] Place each pending review task.*\n(.*\n)* {2}2\. \[done\] Refine the week: .*\n {5}nothing to refine.*\n {2}3\. \[done\] Verify the schedule/,
  );
  expect(state).toMatch(/tools: {3}\d+ call\(s\); last: /);
  expect(state).toContain("answer:  Your review week is partly arranged: 1 review task(s) are still pending.");
  expect(state).toMatch(
    /ended: {3}partial — every step finished, but 1 item\(s\) are still pending: .+\n {2}still open: .+ — you declined the proposed change/,
  );

  // Step snapshots: every step transition, oldest first. The answer to the plan card applies no write, so that run is
  // saved once, at its first write card: step 1's start is the first snapshot (its place step proposes the week's
  // writes in its first run); the rejection above has the planner review the plan after it.
  chat.send("/history");
  const history = await chat.waitFor("you> ");
  expect(history).toMatch(
    /6 step snapshot\(s\), oldest first:\n {2}\S+ {2}step 1 of 3 → running .*\n {2}\S+ {2}step 1 of 3 → done .*\n {2}\S+ {2}step 2 of 3 → running .*\n {2}\S+ {2}step 2 of 3 → done .*\n {2}\S+ {2}step 3 of 3 → running/,
  );
  // The last step done is the task's end, judged by deliver, which runs next: the thread is still running there (it
  // used to read "completed" — a guess from the steps, wrong for this task, which ended partial).
  expect(history).toMatch(/step 3 of 3 → done {2}\(thread running; checkpoint \S+\)/);

  chat.send("/threads");
  expect(await chat.waitFor("you> ")).toMatch(
    new RegExp(`Threads of ${USER}.*\\n\\* cli-first  \\S+  "Help me arrange next week's review sessions\\."`),
  );

  chat.send("/frobnicate");
  expect(await chat.waitFor("you> ")).toContain("Unknown command /frobnicate. Type /help for the commands.");

  chat.send("/help");
  const help = await chat.waitFor("you> ");
  for (const command of [
    "/clear",
    "/state",
    "/history",
    "/threads",
    "/resume <thread>",
    "/import <file.ics>",
    "/export <file.ics>",
    "/help",
    "/quit",
  ])
    expect(help).toContain(command);

  chat.send("/quit");
  await chat.waitFor("Bye.");
  expect(await chat.exitCode()).toBe(0);
});

test("/import sends a local .ics file through a card, nothing stored before it is approved; a bad file changes nothing; /export writes the week", async () => {
  const seminar = path.join(directory, "seminar.ics");
  // Sunday 17 March 2024, 14:00–15:40 in Shanghai: free in examples/week.json.
  await fs.writeFile(seminar, SEMINAR_CALENDAR);
  const chat = ScriptProcess.start(
    "cli/chat.ts",
    [
      "--user",
      "cli-ics",
      "--threads-file",
      path.join(directory, "ics-threads.json"),
      "--thread",
      "cli-ics",
      "--week",
      "examples/week.json",
      // The week's own Wednesday: the file's days are still to come, so it is stored as dated.
      "--now",
      "2024-03-13T14:30:00+08:00",
    ],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        DATABASE_URL: postgres.url,
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
        TEMPO_USER_ID: "",
        TEMPO_DOMAINS: "schedule",
      },
    },
  );
  processes.push(chat);
  await chat.waitFor("you> ");
  chat.send(`/import ${path.join(directory, "missing.ics")}`);
  expect(await chat.waitFor("you> ")).toContain("there is no such file. Nothing was changed.");
  chat.send(`/import ${seminar}`);
  expect(await chat.waitFor("choice> ")).toContain("Import the timetable from the calendar file seminar.ics");
  chat.send("a");
  const card = await chat.waitFor("choice> ");
  expect(card).toContain("Confirm write: import_calendar");
  expect(card).toContain("Import 1 event(s) from the calendar file: History seminar");
  // Nothing is stored before the approval: the week written out now has no seminar.
  chat.send(`/export ${path.join(directory, "before.ics")}`);
  await chat.waitFor("choice> ");
  expect(await fs.readFile(path.join(directory, "before.ics"), "utf8")).not.toContain("History seminar");
  chat.send("a");
  expect(await chat.waitFor("you> ")).toMatch(/Done: imported 1 event\(s\): .*"History seminar"/);
  chat.send(`/export ${path.join(directory, "after.ics")}`);
  expect(await chat.waitFor("you> ")).toContain(`Wrote your week to ${path.join(directory, "after.ics")}.`);
  expect(await fs.readFile(path.join(directory, "after.ics"), "utf8")).toContain("SUMMARY:History seminar");
  chat.send("/quit");
  await chat.waitFor("Bye.");
  expect(await chat.exitCode()).toBe(0);
});

test("an interrupted thread is reopened after a restart, with --thread and without, and /resume switches threads", async () => {
  // First run: a task up to its plan card, then the input ends.
  const first = startChat("--thread", "cli-second");
  await first.waitFor("you> ");
  first.send("Arrange my review week, please.");
  await first.waitFor("choice> ");
  first.endInput();
  expect(await first.waitFor("Bye.")).toContain(
    "Thread cli-second waits for your answer; continue with: npm start -- --thread cli-second",
  );
  expect(await first.exitCode()).toBe(0);

  // Restart with --thread: the pending plan card is shown again from the saved state.
  const second = startChat("--thread", "cli-second");
  const reopened = await second.waitFor("choice> ");
  expect(reopened).toContain(
    `Thread cli-second (user ${USER}): waiting_user_confirmation — goal: Arrange my review week, please.`,
  );
  expect(reopened).toContain("┌─ Plan\n│ Plan for: Arrange my review week, please.");
  second.send("a");
  const write = await second.waitFor("choice> ");
  expect(write).toContain("│ Step 1 of 3: ");

  // The same user's week has one review left pending (the one rejected above): a single write card.
  expect(write).toContain("┌─ Confirm write: place");
  // Edits: bad JSON and arguments the tool refuses leave the card waiting.
  second.send("e");
  await second.waitFor("arguments> ");
  second.send("{not json");
  expect(await second.waitFor("choice> ")).toContain("Not valid JSON");
  second.send("e");
  await second.waitFor("arguments> ");
  second.send('{"task_id": 42}');
  const refused = await second.waitFor("choice> ");
  expect(refused).toContain("error: [INVALID_RESUME] The edited arguments do not fit place");
  expect(refused).toContain("│ Step 1 of 3: ");
  second.send("maybe");
  expect(await second.waitFor("choice> ")).toContain(
    "Answer with a approve / e edit the arguments / r reject with feedback / i ignore (reject without) (or a /command).",
  );

  // /resume: to the finished thread and back; the waiting card comes back with it.
  second.send("/resume cli-first");
  expect(await second.waitFor("you> ")).toContain(`Resumed thread cli-first (user ${USER}): partial — goal: ${TASK}`);
  second.send("/resume no-such-thread");
  expect(await second.waitFor("you> ")).toContain("No saved thread no-such-thread.");
  second.send("/resume cli-second");
  const back = await second.waitFor("choice> ");
  expect(back).toContain(`Resumed thread cli-second (user ${USER}): waiting_user_confirmation`);
  expect(back).toContain("│ Step 1 of 3: ");
  second.send("/threads");
  expect(await second.waitFor("choice> ")).toMatch(
    /\* cli-second {2}\S+ {2}waiting: place {2}"Arrange my review week, please\."/,
  );
  second.endInput();
  await second.waitFor("Bye.");
  expect(await second.exitCode()).toBe(0);

  // Restart without --thread: the user's last thread still waits, so it is reopened.
  const third = startChat();
  const again = await third.waitFor("choice> ");
  expect(again).toContain("Your last thread waits for an answer; reopening it");
  expect(again).toContain("│ Step 1 of 3: ");
  third.send("i");
  const next = await third.waitFor(/choice> |you> /);
  expect(next).toMatch(/✗ Not applied: the user rejected this change without comment/);
  third.send("/clear");
  const cleared = await third.waitFor("you> ");
  expect(cleared).toMatch(/tempo> Cleared/);
  expect(cleared).toMatch(
    /New thread cli-[0-9a-f-]+ \(the previous one, cli-second, stays available: \/resume cli-second\)\./,
  );
  third.endInput();
  await third.waitFor("Bye.");
  expect(await third.exitCode()).toBe(0);
});

test("with TEMPO_DOMAINS=schedule,todo the chat keeps a to-do list beside the week, each write on its card", async () => {
  const chat = startChatServing("schedule,todo", "--thread", "cli-todo", "--verbose");
  await chat.waitFor("you> ");
  chat.send("show my to-dos");
  const listed = await chat.waitFor("you> ");
  expect(listed).toContain('→ list_todos {"status":"open"}');
  expect(listed).toMatch(/tempo> Your open to-dos \(3\):\n- Email the calculus TA about the midterm/);

  chat.send('Add "Renew the bus pass" to my to-do list');
  expect(await chat.waitFor("choice> ")).toMatch(
    /┌─ Plan\n│ Plan for: Add "Renew the bus pass" to my to-do list\n│ 1\. Add the to-do "Renew the bus pass"/,
  );
  chat.send("a");
  const card = await chat.waitFor("choice> ");
  expect(card).toMatch(/┌─ Confirm write: add_todo\n│ Add the to-do "Renew the bus pass"/);
  chat.send("a");
  const added = await chat.waitFor("you> ");
  expect(added).toContain('← added to-do todo-5 "Renew the bus pass" (open)');
  expect(added).toContain('tempo> Done: added the to-do "Renew the bus pass".');

  // The schedule is still served beside it.
  chat.send("when am I free on Monday?");
  // Monday by its date, the free time by the clock (the sample week is dated).
  expect(await chat.waitFor("you> ")).toMatch(/tempo> You are free:\n- Mon \d+ \w{3}: \d\d:\d\d–\d\d:\d\d/);
  chat.send("/quit");
  await chat.waitFor("Bye.");
  expect(await chat.exitCode()).toBe(0);
});

test("--week moves a week whose days have all passed to the coming one, and --now is the chat's clock", async () => {
  const chat = startChat(
    "--thread",
    "cli-week-moved",
    "--user",
    "cli-week-mover",
    "--week",
    "examples/week.json",
    "--now",
    "2026-11-25T10:00:00+08:00",
  );
  const start = await chat.waitFor("you> ");
  expect(start).toContain(
    "its days (2024-03-11 to 2024-03-17) had all passed: moved 141 week(s) on, to 2026-11-23 to 2026-11-29, each on the same weekday",
  );
  chat.send("/week");
  const week = await chat.waitFor("you> ");
  // The grid is dated in the moved week.
  expect(week).toMatch(/│Mon 23 Nov/);
  expect(week).toMatch(/│Sun 29 Nov/);
  expect(week).not.toContain("Mar");
  chat.send("/quit");
  await chat.waitFor("Bye.");
  expect(await chat.exitCode()).toBe(0);
});

/** The /week test's clock: a Saturday morning, so the user's first week is the coming one, all of it ahead. */
const WEEK_TEST_NOW = "2026-11-28T10:00:00+08:00";

// eslint-disable-next-line no-control-regex -- the test looks for terminal colour sequences
const COLOUR = /\u001b\[[0-9;]*m/;

test("/week draws the week as a grid: plain on a pipe, coloured in a terminal; a write card draws its proposal", async () => {
  // A user of its own: the tests above arranged cli-student's week.
  // The clock is the test's: the eve of the user's first week (on the real clock the days and the now marker move).
  const piped = startChat("--thread", "cli-week-pipe", "--user", "cli-week-student", "--now", WEEK_TEST_NOW);
  await piped.waitFor("you> ");
  piped.send("/week");
  const plain = await piped.waitFor("you> ");
  expect(plain).toMatch(/│Mon \d+ \w{3}/);
  expect(plain).toContain(" 1 08:00   │▌Calculus");
  expect(plain).toContain("Still without a place: ");
  expect(plain).not.toMatch(COLOUR);
  piped.send("arrange my week");
  await piped.waitFor("choice> ");
  piped.send("a");
  const card = await piped.waitFor("choice> ");
  // People's words by default: what the tool does and what it found, the card without ids or JSON.
  expect(card).toContain("→ looking for the best arrangement of your pending reviews");
  expect(card).toMatch(
    /← the week scores [\d.]+\/100 now; the best proposal \(place \d+ of \d+ pending review\(s\)\) would make it/,
  );
  expect(card).not.toContain("arguments:");
  expect(card).not.toContain("propose_arrangement");
  // Under the batch card, the week as it would be: the placements drawn ("+") and told with their dates.
  const drawing = card.slice(card.indexOf("└─ a accept all"));
  expect(drawing).toMatch(/│\+/);
  expect(drawing).toMatch(/\n\+ [^\n]+: (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d+ \w{3}, \d\d:\d\d–\d\d:\d\d/);
  piped.send("/quit");
  await piped.waitFor("Bye.");
  expect(await piped.exitCode()).toBe(0);

  const terminal = ScriptProcess.startInTerminal(
    "cli/chat.ts",
    [
      "--user",
      "cli-week-student",
      "--threads-file",
      path.join(directory, "threads.json"),
      "--thread",
      "cli-week-tty",
      "--now",
      WEEK_TEST_NOW,
    ],
    {
      cwd: process.cwd(),
      // A person's terminal: none of the variables that turn colour off (CI runs set CI, which Node reads as "no colour").
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([name]) => !["NO_COLOR", "NODE_DISABLE_COLORS", "CI", "FORCE_COLOR"].includes(name),
          ),
        ),
        DATABASE_URL: postgres.url,
        OPENAI_API_KEY: "",
        OPENAI_BASE_URL: "",
      },
    },
  );
  processes.push(terminal);
  await terminal.waitFor("you> ");
  terminal.send("/week");
  const coloured = await terminal.waitFor("you> ");
  expect(coloured).toMatch(COLOUR);
  expect(coloured.replace(new RegExp(COLOUR.source, "g"), "")).toMatch(/│Mon \d+/);
  terminal.send("/quit");
  await terminal.waitFor("Bye.");
  expect(await terminal.exitCode()).toBe(0);
});
