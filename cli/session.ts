/**
 * The terminal chat's loop. Each turn reads the thread's saved state: when
 * it waits on a card (a plan, a write tool, a question), the card is shown
 * and the typed answer resumes the graph with v1 `{ decisions }` addressed to
 * that card's interrupt id (so an answer never lands on another card); otherwise
 * the line is a new message. Slash commands work at any prompt. Events of
 * the `custom` stream print as they arrive. Nothing lives in this process
 * between turns but the thread id: a restarted chat picks up where the
 * saved state says the thread stands.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command, type BaseStore } from "@langchain/langgraph";
import { DEFAULT_WORKFLOW_SETTINGS, type WorkflowSettings } from "../config/configuration.js";
import { asCard, type Card } from "../contracts/cards.js";
import { rejectDecision, type DecisionsResponse } from "../review/resume.js";
import type { ScheduleState } from "../tools/schedule/state.js";
import { openProposal } from "../kernel/proposal.js";
import { callFrame } from "../kernel/call-records.js";
import { isBlankText } from "../kernel/commands.js";
import type { TempoState } from "../kernel/state.js";
import type { Language } from "../contracts/language.js";
import { carryOnStoppedRun } from "../server/carry-on.js";
import {
  readExecutionState,
  runStateNow,
  stepSnapshots,
  threadLockOf,
  toExecutionState,
} from "../server/execution-state.js";
import type { TempoGraph } from "../server/tempo-graph.js";
import { isTempoEvent } from "../server/openai-sse.js";
import {
  feedbackResponse,
  isPlanCard,
  isQuestionCard,
  readCardReply,
  readEditedArguments,
  readEditedPlan,
  type EditReading,
} from "./card-answer.js";
import { isCommand, parseCommand, type ChatCommand } from "./commands.js";
import { readCalendarFile, writeCalendarFile } from "./calendar-files.js";
import { calendarImportMessage } from "../contracts/attached-calendar.js";
import { renderExecutionState, renderStepSnapshots, renderThreads, type StateWords } from "./render-state.js";
import { describeToolResult } from "./tool-words.js";
import { readableScheduleText } from "../tools/schedule/readable.js";
import { summaryInChinese } from "../tools/schedule/summary-words.js";
import { cardPrompt, renderCard, renderEditInstructions, renderError, renderHelp } from "./render.js";
import { CHAT, PROMPTS, tell, type Words } from "./chat-words.js";
import { runPreferenceCommand } from "../memory/preference-commands.js";
import { newChatThreadId, savedLanguage } from "./starting-thread.js";
import { renderCardProposal, renderWeek, type WeekViewOptions } from "./week-view.js";
import { StreamPrinter } from "./stream-printer.js";
import type { LineReader } from "./line-reader.js";
import type { ThreadEntryUpdate, ThreadRegistry } from "./thread-registry.js";

/** What the session needs: the graph, who and where, and the terminal. */
export interface ChatSessionOptions {
  graph: TempoGraph;
  userId: string;
  threadId: string;
  registry: ThreadRegistry;
  input: LineReader;
  write: (text: string) => void;
  /** Makes the id of a fresh thread (for /clear). */
  newThreadId?: () => string;
  /** The user's week as iCalendar text (for /export); without it /export says it is not available. */
  exportCalendar?: (userId: string) => Promise<string>;
  /** The user's schedule (for /week, and the proposal drawn under a write card); without it neither is drawn. */
  loadSchedule?: (userId: string) => Promise<ScheduleState>;
  /** Start in the debug view: tool names, ids and JSON arguments (`--verbose`; `/debug` toggles it). */
  verbose?: boolean;
  /** How the week is drawn: colour (a terminal that has it), the terminal's width; the clock that shades the past. */
  weekView?: { colour?: boolean; width?: number; now?: () => Date };
  /** `--now`: the moment every run takes as now (`configurable.now`); absent, the graph reads the clock. */
  now?: string;
  /** Where the user's memory lives (/prefs, /forget); the graph's own store when not given. */
  store?: BaseStore;
  /** The longest message the graph takes (what `/import` may send); the graph's own setting when not given. */
  maxMessageCharacters?: number;
}

/** The longest message `graph` takes: its run guard's `maxMessageCharacters`, else the default. */
function messageLimitOf(graph: unknown): number {
  return (
    (graph as { runGuard?: { settings?: WorkflowSettings } }).runGuard?.settings?.maxMessageCharacters ??
    DEFAULT_WORKFLOW_SETTINGS.maxMessageCharacters
  );
}

/** A card the thread waits on, with where execution stands. */
interface PendingCard {
  card: Card;
  /** The LangGraph interrupt id the answer is addressed to, when the server gave one. */
  interruptId: string | undefined;
  /** Identifies this wait (checkpoint and interrupt), so the card prints once per wait. */
  key: string;
}

type GraphInput = Parameters<TempoGraph["stream"]>[0];

/** The outcome of reading an answer to a card. */
type CardOutcome =
  /** Resume the graph with this response. */
  | { kind: "answered"; response: DecisionsResponse }
  /** No answer yet (a choice it does not take, a bad edit): the card keeps waiting. */
  | { kind: "waiting" }
  /** The input ended. */
  | { kind: "ended" };

/** One user's chat on one thread at a time. */
export class ChatSession {
  private threadId: string;
  private shownCardKey: string | undefined;
  /** The debug view (tool names, ids, JSON) is on. */
  private verbose: boolean;
  /** The user's language, read from the conversation's messages (`languageOf`): cards and tool lines are told in it. */
  private language: Language = "en";
  private readonly newThreadId: () => string;

  constructor(private readonly options: ChatSessionOptions) {
    this.threadId = options.threadId;
    this.verbose = options.verbose ?? false;
    this.newThreadId = options.newThreadId ?? newChatThreadId;
  }

  /** The language the chat speaks in now (the conversation's, `languageOf`). */
  get currentLanguage(): Language {
    return this.language;
  }

  /** The thread the chat is on. */
  get currentThreadId(): string {
    return this.threadId;
  }

  /** Runs until /quit or the end of the input. */
  async run(): Promise<void> {
    this.language = await this.conversationLanguage();
    await this.describeThread("started");
    for (;;) {
      const pending = await this.pendingCard();
      if (pending && pending.key !== this.shownCardKey) {
        this.language = await this.conversationLanguage();
        this.print(renderCard(pending.card, { verbose: this.verbose, language: this.language }));
        await this.drawProposal(pending.card);
        this.shownCardKey = pending.key;
      }
      const line = await this.options.input.read(
        pending ? cardPrompt(pending.card, this.language) : this.say(PROMPTS.message),
      );
      if (line === null) break;
      if (isBlankText(line)) continue;
      if (isCommand(line)) {
        if ((await this.runCommand(parseCommand(line, this.language))) === "quit") break;
        continue;
      }
      // The card may have gone while the prompt waited (answered from another client, whose run was then cancelled):
      // the line is not sent as its answer, and a run that stopped part-way is carried on, so its report is printed.
      if (pending && (await this.pendingCard())?.key !== pending.key) {
        this.print(this.say(CHAT.cardGone));
        this.shownCardKey = undefined;
        await this.carryOnStoppedRun();
        continue;
      }
      if (pending) {
        const answer = await this.answerCard(pending.card, line);
        if (answer.kind === "ended") break;
        if (answer.kind === "answered") {
          // Addressed to the card's interrupt: if the thread moved on meanwhile, the run is refused as STALE_RESUME.
          const resume = pending.interruptId ? { [pending.interruptId]: answer.response } : answer.response;
          await this.runGraph(new Command({ resume }) as GraphInput);
        }
      } else {
        await this.touch(this.threadId, { lastMessage: line.trim() });
        this.language = await this.conversationLanguage(line);
        await this.runGraph({ messages: [new HumanMessage(line.trim())] });
      }
    }
    const pending = await this.pendingCard();
    if (pending) this.print(this.say(CHAT.waitsAtEnd(this.threadId)));
  }

  /**
   * Records activity on a thread in the thread file, stamped with the chat's clock: `--now` when given (a run that
   * lives on 7 Dec lists its threads as active on 7 Dec, as /prefs dates what it heard), else the system clock.
   */
  private async touch(threadId: string, update: ThreadEntryUpdate = {}): Promise<void> {
    const moment = this.options.now === undefined ? new Date() : new Date(this.options.now);
    await this.options.registry.touch(threadId, this.options.userId, update, moment);
  }

  private config() {
    return {
      configurable: {
        thread_id: this.threadId,
        user_id: this.options.userId,
        ...(this.options.now === undefined ? {} : { now: this.options.now }),
      },
    };
  }

  /**
   * The user's language as the rest of Tempo decides it: `languageOf` over the thread's messages (and `line`, a message
   * about to be sent), so a short answer ("ok", "day 5") keeps a Chinese conversation Chinese.
   */
  private async conversationLanguage(line?: string): Promise<Language> {
    const snapshot = await this.options.graph.getState(this.config()).catch(() => undefined);
    return savedLanguage(snapshot?.values, line === undefined ? [] : [line]);
  }

  /** The card the thread waits on, read from the saved state. */
  private async pendingCard(): Promise<PendingCard | null> {
    const snapshot = await this.options.graph.getState(this.config());
    for (const task of snapshot.tasks) {
      const waiting = task.interrupts[0];
      const card = waiting ? asCard(waiting.value) : null;
      if (waiting && card) {
        const checkpointId = String(snapshot.config.configurable?.checkpoint_id ?? "");
        return { card, interruptId: waiting.id, key: `${this.threadId}/${checkpointId}/${waiting.id ?? task.id}` };
      }
    }
    return null;
  }

  /** Reads the answer to `card`, asking for feedback or an edit when the choice needs one. */
  private async answerCard(card: Card, line: string): Promise<CardOutcome> {
    const reply = readCardReply(line, card, this.language);
    switch (reply.kind) {
      case "answer":
        return { kind: "answered", response: reply.response };
      case "invalid":
        this.print(reply.message);
        return { kind: "waiting" };
      case "feedback": {
        const feedback = await this.options.input.read(this.say(PROMPTS.feedback));
        return feedback === null ? { kind: "ended" } : this.checked(feedbackResponse(feedback, card, this.language));
      }
      case "items":
        return this.answerItems(card, reply.decisions, reply.edits, reply.feedback);
      case "edit": {
        this.print(renderEditInstructions(card, 0, this.language));
        if (!isPlanCard(card)) {
          const text = await this.options.input.read(this.say(PROMPTS.arguments));
          if (text === null) return { kind: "ended" };
          return isBlankText(text)
            ? { kind: "waiting" }
            : this.checked(readEditedArguments(text, card, 0, this.language));
        }
        const lines: string[] = [];
        for (;;) {
          const step = await this.options.input.read(this.say(PROMPTS.step(lines.length + 1)));
          if (step === null) return { kind: "ended" };
          if (isBlankText(step)) break;
          lines.push(step);
          // A JSON list is the whole plan on one line.
          if (lines.length === 1 && step.trim().startsWith("[")) break;
        }
        return this.checked(readEditedPlan(lines, card, this.language));
      }
    }
  }

  /** A batch card answered item by item: the feedback on each rejected write, then the arguments of each edited one. */
  private async answerItems(
    card: Card,
    decisions: DecisionsResponse["decisions"],
    edits: number[],
    feedback: number[],
  ): Promise<CardOutcome> {
    const answered = [...decisions];
    for (const index of feedback) {
      const text = await this.options.input.read(this.say(PROMPTS.itemFeedback(index + 1)));
      if (text === null) return { kind: "ended" };
      // No feedback: rejected without.
      if (!isBlankText(text)) answered[index] = rejectDecision(text.trim());
    }
    for (const index of edits) {
      this.print(renderEditInstructions(card, index, this.language));
      const text = await this.options.input.read(this.say(PROMPTS.itemArguments(index + 1)));
      if (text === null) return { kind: "ended" };
      if (isBlankText(text)) return { kind: "waiting" };
      const reading = readEditedArguments(text, card, index, this.language);
      if (!reading.ok) return this.checked(reading);
      answered[index] = reading.response.decisions[0]!;
    }
    return { kind: "answered", response: { decisions: answered } };
  }

  private checked(reading: EditReading): CardOutcome {
    if (reading.ok) return { kind: "answered", response: reading.response };
    this.print(reading.message);
    return { kind: "waiting" };
  }

  /** Streams one run, printing events as they come; a failed run is reported and the chat goes on. */
  private async runGraph(input: GraphInput): Promise<void> {
    await this.streamRun(() => this.options.graph.stream(input, { ...this.config(), streamMode: "custom" }));
  }

  /**
   * Opening a thread whose last run stopped part-way (a crash, a killed worker) with no card to show: it is carried on
   * now, to its next card or its answer, instead of waiting for the next message (server/carry-on.ts).
   */
  private async carryOnStoppedRun(): Promise<void> {
    const stream = await carryOnStoppedRun(this.options.graph, this.config(), { streamMode: "custom" }).catch(
      (error: unknown) => {
        this.print(renderError(error, this.language));
        return undefined;
      },
    );
    if (!stream) return;
    this.print(this.say(CHAT.carryingOn(this.threadId)));
    await this.streamRun(async () => stream);
  }

  /** Prints the events of the run `start` starts as they come; a failed run is reported and the chat goes on. */
  private async streamRun(start: () => Promise<AsyncIterable<unknown>>): Promise<void> {
    const printer = new StreamPrinter({
      verbose: this.verbose,
      language: this.language,
      ...(this.verbose ? {} : await this.scheduleForWords()),
    });
    try {
      const stream = await start();
      for await (const event of stream) {
        if (isTempoEvent(event)) this.options.write(printer.print(event));
      }
      this.options.write(printer.close());
    } catch (error) {
      this.options.write(printer.close());
      this.print(renderError(error, this.language));
      // A refused answer leaves the card waiting: show it again.
      this.shownCardKey = undefined;
    }
    const pending = await this.pendingCard();
    await this.touch(this.threadId, { waitingFor: pending?.card.action_requests[0]?.name ?? null });
  }

  private async runCommand(command: ChatCommand): Promise<"continue" | "quit"> {
    switch (command.name) {
      case "quit":
        return "quit";
      case "help":
        this.print(renderHelp(this.language));
        break;
      case "invalid":
        this.print(command.message);
        break;
      case "state":
        this.print(
          renderExecutionState(
            await readExecutionState(this.options.graph, this.config()),
            this.language,
            await this.stateWords(),
          ),
        );
        break;
      case "history":
        this.print(renderStepSnapshots(await stepSnapshots(this.options.graph, this.config()), this.language));
        break;
      case "week":
        await this.drawWeek();
        break;
      case "debug":
        this.verbose = !this.verbose;
        this.print(this.say(this.verbose ? CHAT.debugOn : CHAT.debugOff));
        break;
      case "threads":
        this.print(
          renderThreads(
            await this.options.registry.list(this.options.userId),
            this.threadId,
            this.options.userId,
            this.language,
          ),
        );
        break;
      case "clear":
        await this.clear();
        break;
      case "resume":
        await this.resume(command.threadId);
        break;
      case "import":
        await this.importCalendar(command.path);
        break;
      case "export":
        await this.exportCalendar(command.path);
        break;
      case "prefs":
      case "forget":
        await this.preferences(command);
        break;
    }
    return "continue";
  }

  /** /prefs lists the user's standing preferences; /forget removes one (the next task no longer keeps to it). */
  private async preferences(command: Extract<ChatCommand, { name: "prefs" | "forget" }>): Promise<void> {
    const store = this.options.store ?? this.options.graph.store;
    this.print(await runPreferenceCommand(store, this.options.userId, this.threadId, command, this.language));
  }

  /** A fresh thread; the graph's /clear on it clears the user's task summary. The old thread stays resumable. */
  private async clear(): Promise<void> {
    const previous = this.threadId;
    this.threadId = this.newThreadId();
    this.shownCardKey = undefined;
    await this.touch(this.threadId, { waitingFor: null });
    await this.runGraph({ messages: [new HumanMessage("/clear")] });
    this.print(this.say(CHAT.newThread(this.threadId, previous)));
  }

  /**
   * Sends a local calendar file to be imported: the agent proposes `import_calendar` with its text, and the card comes
   * first — nothing is stored until it is approved. A file that cannot be read, is larger than a message may be, or is
   * not iCalendar text, sends nothing (checked before "Sending…").
   */
  private async importCalendar(file: string): Promise<void> {
    if (await this.pendingCard()) {
      this.print(this.say(CHAT.importWhileWaiting));
      return;
    }
    const reading = await readCalendarFile(
      file,
      { maxMessageCharacters: this.options.maxMessageCharacters ?? messageLimitOf(this.options.graph) },
      this.language,
    );
    if (!reading.ok) {
      this.print(reading.message);
      return;
    }
    this.print(this.say(CHAT.sendingImport(reading.fileName)));
    await this.touch(this.threadId, { lastMessage: `/import ${file}` });
    await this.runGraph({
      messages: [new HumanMessage(calendarImportMessage(reading.fileName, reading.ics, this.language))],
    });
  }

  /** The tools' words in `/state` as the chat says them, with the user's week for names and dates. */
  private async stateWords(): Promise<StateWords> {
    const { schedule } = await this.scheduleForWords();
    return {
      summary: (text) => readableScheduleText(summaryInChinese(text), this.language, schedule),
      result: (text) => describeToolResult(text, undefined, this.language, schedule),
    };
  }

  /** The user's week as a run begins, so tool lines name tasks and places (nothing when there is no schedule). */
  private async scheduleForWords(): Promise<{ schedule?: ScheduleState }> {
    if (!this.options.loadSchedule) return {};
    try {
      return { schedule: await this.options.loadSchedule(this.options.userId) };
    } catch {
      return {};
    }
  }

  /** /week: the user's week as a grid. */
  private async drawWeek(): Promise<void> {
    if (!this.options.loadSchedule) {
      this.print(this.say(CHAT.weekUnavailable));
      return;
    }
    try {
      this.options.write(renderWeek(await this.options.loadSchedule(this.options.userId), this.weekViewOptions()));
    } catch (error) {
      this.print(renderError(error, this.language));
    }
  }

  /** Under a write card, the week as its writes would leave it (nothing is stored before the card is answered). */
  private async drawProposal(card: Card): Promise<void> {
    if (!this.options.loadSchedule || isQuestionCard(card) || isPlanCard(card)) return;
    // The proposal's own calls: a card shows an undo's recorded event in words, and its call keeps the record.
    const snapshot = await this.options.graph.getState(this.config());
    // Each with the frame its card was made in: a card the week changed under since is not drawn on the week as it is.
    const proposal = openProposal(snapshot.values as TempoState);
    const drawing = renderCardProposal(
      card,
      await this.options.loadSchedule(this.options.userId),
      this.weekViewOptions(),
      proposal?.writes.map((write) => ({ ...write, frame: callFrame(proposal.message, write.id) })) ?? [],
    );
    if (drawing !== undefined) this.options.write(drawing);
  }

  private weekViewOptions(): WeekViewOptions {
    const view = this.options.weekView ?? {};
    // Drawn in the chat's language, as the cards and answers are.
    return {
      language: this.language,
      ...(view.colour === undefined ? {} : { colour: view.colour }),
      ...(view.width === undefined ? {} : { width: view.width }),
      ...(view.now === undefined ? {} : { now: view.now() }),
    };
  }

  /** Writes the week to a local .ics file (a read: no card). */
  private async exportCalendar(file: string): Promise<void> {
    if (!this.options.exportCalendar) {
      this.print(this.say(CHAT.exportUnavailable));
      return;
    }
    try {
      this.print(await writeCalendarFile(file, await this.options.exportCalendar(this.options.userId), this.language));
    } catch (error) {
      this.print(renderError(error, this.language));
    }
  }

  private async resume(threadId: string): Promise<void> {
    const snapshot = await this.options.graph.getState({
      configurable: { thread_id: threadId, user_id: this.options.userId },
    });
    if (snapshot.createdAt === undefined) {
      this.print(this.say(CHAT.noSavedThread(threadId)));
      return;
    }
    const owner = (snapshot.values as { userId?: unknown }).userId;
    if (typeof owner === "string" && owner !== "" && owner !== this.options.userId) {
      this.print(this.say(CHAT.otherUsersThread(threadId, this.options.userId)));
      return;
    }
    this.threadId = threadId;
    this.shownCardKey = undefined;
    await this.touch(threadId);
    this.language = await this.conversationLanguage();
    await this.describeThread("resumed");
  }

  /** One line on the current thread: new, or its status and goal; a stopped run of it is carried on first. */
  private async describeThread(label: "started" | "resumed"): Promise<void> {
    await this.carryOnStoppedRun();
    const snapshot = await this.options.graph.getState(this.config());
    if (snapshot.createdAt === undefined) {
      this.print(this.say(CHAT.threadNew(label, this.threadId, this.options.userId)));
      return;
    }
    const state = toExecutionState(snapshot, await runStateNow(threadLockOf(this.options.graph), this.threadId));
    this.print(this.say(CHAT.threadStatus(label, this.threadId, this.options.userId, state.status, state.goal)));
  }

  /** The chat's `words` in the conversation's language. */
  private say(words: Words): string {
    return tell(this.language, words);
  }

  private print(text: string): void {
    this.options.write(`${text}\n`);
  }
}
