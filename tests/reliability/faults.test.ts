/**
 * Faults (issue 8.3):
 *
 * (a) the database goes away mid-run: a real PostgreSQL 15 server under the
 *     official PostgresSaver is stopped while the execute stage runs; the run
 *     fails with a clear error, the server comes back on the same data
 *     directory and port, and the thread resumes and finishes correctly;
 * (b) the model times out or answers with HTTP errors: the real `ChatOpenAI`
 *     of `createStageModels` against a local fake OpenAI server — retries stay
 *     within the bound, then success, or ModelUnavailableError after it; the
 *     deliver stage falls back to its mechanical summary;
 * (c) a process killed mid-execute (SIGKILL) is resumed from its last
 *     checkpoint by a new process, which finishes the task.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createCheckpointer } from "../../checkpoints/index.js";
import { openDatabase, type Database } from "../../database/index.js";
import { ModelRequestRefusedError, ModelUnavailableError, TempoError } from "../../errors/index.js";
import type { TempoState } from "../../kernel/state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { mechanicalSummary } from "../../nodes/deliver/index.js";
import {
  checkScheduleInvariants,
  createScheduleDomain,
  InMemoryScheduleRepository,
  PostgresScheduleRepository,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import { decide, ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import {
  startFakeOpenAIServer,
  toLangChainMessages,
  type FakeOpenAIReply,
  type FakeOpenAIServer,
} from "../support/fake-openai-server.js";
import { graphOnOpenAI, openAISettings } from "../support/openai-graph.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import {
  interruptsOf,
  json,
  resume,
  scripted,
  threadConfig,
  transcript,
  unpairedToolCalls,
} from "../support/scripted.js";
import { AsyncScriptedModel } from "./support/async-model.js";
import { stateProblems } from "./support/conversation.js";
import { startRestartablePostgres, type RestartablePostgres } from "./support/restartable-postgres.js";
import { summarizeConversation, type ConversationSummary } from "./support/schedule-runtime.js";
import { thrownBy } from "./support/thread-state.js";
import { startWorker, type WorkerProcess } from "./support/worker-process.js";

const accept = resume({ type: "accept", args: null });

/** Polls `condition` every 20 ms until it holds; fails after `timeoutMs`. */
async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const text = (value: unknown) => JSON.stringify(value);

describe("(a) the database goes away mid-run", () => {
  let server: RestartablePostgres;
  const databases: Database[] = [];

  beforeAll(async () => {
    server = await startRestartablePostgres();
  });
  afterAll(async () => {
    for (const database of databases) await database.close().catch(() => undefined);
    await server?.destroy();
  });

  test("stopped during execute: the run fails with a connection error; restarted on the same port, the thread resumes and finishes once", async () => {
    const database = await openDatabase({ databaseUrl: server.url, poolSize: 4, connectTimeoutMs: 3_000 });
    databases.push(database);
    const checkpointer = await createCheckpointer(database);
    const domain = createNotesDomain({ alice: ["buy milk"] });
    const config = threadConfig("db-outage", "alice");
    let stopped = false;
    const execute = new AsyncScriptedModel(async ({ index }) => {
      if (index === 0)
        return text({ speak: "Reading.", action: "continue", tool_call: { name: "list_notes", arguments: {} } });
      if (index === 1) {
        // The database goes away while the model "thinks": the checkpoint after this step cannot be written.
        // Checkpoints are saved asynchronously (LangGraph's default durability): first let the previous step's
        // checkpoint land and every pooled connection go idle — a server stopping under a checked-out connection
        // crashes the process (see the issue-8 report), which is not what this test is about.
        await until(
          async () =>
            ((await checkpointer.getTuple(config))?.checkpoint.channel_values as { roundsUsed?: number } | undefined)
              ?.roundsUsed === 1,
        );
        await until(async () => database.pool.totalCount === database.pool.idleCount);
        await server.stop();
        stopped = true;
      }
      if (index <= 2)
        return text({
          speak: "Adding.",
          action: "confirm",
          tool_call: { name: "add_note", arguments: { text: "call mom" } },
        });
      return text({ action: "done", goal_check: "list shows call mom" });
    });
    const models = {
      default: scripted([json({ intent: "task" })]),
      plan: scripted([
        json({ speak: "Plan.", action: "plan_done", plan_steps: [{ content: "Add the note", done_when: "listed" }] }),
      ]),
      execute,
      deliver: scripted(["Added the note."]),
    };
    const graph = buildTempoGraph({ models, domain, checkpointer });

    const planned = await graph.invoke(message("Add a note: call mom"), config);
    expect(interruptsOf(planned)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
    // The answer to a plan card applies no write, so by default its run is saved once, when it ends; saving every
    // step here (as the answer to a write card does) is what puts a checkpoint between the two execute rounds.
    const failure = await thrownBy(graph.invoke(accept, { ...config, durability: "async" }));
    expect(stopped).toBe(true);
    expect(failure).toBeInstanceOf(Error);
    // A typed error, whose cause is the refused connection to the stopped server.
    expect(failure).toMatchObject({
      name: "DatabaseUnreachableError",
      code: "DATABASE_UNREACHABLE",
      message: expect.stringContaining("resume it once the database is back"),
    });
    expect((failure as Error).cause).toMatchObject({
      code: "ECONNREFUSED",
      message: expect.stringContaining(`127.0.0.1:${server.port}`),
    });
    expect(domain.applied).toEqual([]);

    await server.start();
    // The retry phrase resumes the task where its last checkpoint left it: after the first read round.
    const atCard = await graph.invoke(message("try again"), config);
    expect(interruptsOf(atCard)[0]?.value).toMatchObject({
      action_request: { action: "add_note", args: { text: "call mom" } },
    });
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(final.planSteps.map((step) => step.status)).toEqual(["done"]);
    expect(final.finalAnswer).toBe("Added the note.");
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("alice")).toEqual({ notes: ["buy milk", "call mom"] });
    expect(transcript(final.messages).filter((line) => line.includes("|calls:"))).toEqual([
      "ai:Reading.|calls:list_notes({})",
      'ai:Adding.|calls:add_note({"text":"call mom"})',
    ]);
    expect(unpairedToolCalls(final.messages)).toEqual([]);
    expect(stateProblems(final as TempoState, 3)).toEqual([]);

    // Another process (a fresh pool) reads the same thread from the restarted server.
    const other = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
    databases.push(other);
    const reader = buildTempoGraph({ models, domain, checkpointer: await createCheckpointer(other) });
    const seen = (await reader.getState(config)).values as TempoState;
    expect(seen.phase).toBe("done");
    expect(seen.finalAnswer).toBe("Added the note.");
    expect(seen.messages.map((entry) => entry.id)).toEqual(final.messages.map((entry) => entry.id));
  });

  test("a thread written before the outage reads back whole after the restart", async () => {
    const database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
    databases.push(database);
    const domain = createNotesDomain();
    const graph = buildTempoGraph({
      models: {
        default: scripted([json({ intent: "task" })]),
        plan: scripted([json({ action: "plan_done", plan_steps: [{ content: "a", done_when: "b" }] })]),
      },
      domain,
      checkpointer: await createCheckpointer(database),
    });
    const config = threadConfig("before-outage", "bob");
    await graph.invoke(message("Add a note"), config);
    const before = await graph.getState(config);
    await server.stop();
    const unreachable = await thrownBy(graph.getState(config));
    expect(unreachable).toBeInstanceOf(Error);
    await server.start();
    const after = await graph.getState(config);
    expect(after.values).toEqual(before.values);
    expect(after.tasks.flatMap((task) => task.interrupts)).toEqual(before.tasks.flatMap((task) => task.interrupts));
  });
});

describe("(b) the model times out or answers with HTTP errors", () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Model settings pointing at the fake server. */
  const settingsFor = openAISettings;
  const requestsOf = (stage: string) => server!.requests.filter((request) => request.stage === stage);
  const planDone = {
    content: text({
      speak: "Plan.",
      action: "plan_done",
      plan_steps: [{ content: "Add the note", done_when: "listed" }],
    }),
  };
  const chatTask = { content: text({ intent: "task", reply: "", reason: "needs tools" }) };

  const graphOn = graphOnOpenAI;

  /** A script answering per stage: `failures[stage]` first (in order), then `healthy[stage]`. */
  function perStage(failures: Partial<Record<string, FakeOpenAIReply[]>>, healthy: Record<string, FakeOpenAIReply>) {
    const seen = new Map<string, number>();
    return (request: { stage: string }): FakeOpenAIReply => {
      const count = seen.get(request.stage) ?? 0;
      seen.set(request.stage, count + 1);
      return (
        failures[request.stage]?.[count] ??
        healthy[request.stage] ?? { status: 404, message: `no reply scripted for stage ${request.stage}` }
      );
    };
  }

  test("HTTP 500 twice, then the plan JSON: the plan stage succeeds on its third request (maxRetries 2)", async () => {
    server = await startFakeOpenAIServer(
      perStage({ plan: [{ status: 500 }, { status: 500 }] }, { chat: chatTask, plan: planDone }),
    );
    // No hang is scripted here: the default timeout is long enough that a loaded machine's slow answer is never retried
    // (with a 400 ms one the chat request was sent twice under load, and the count below read [2, 3]).
    const { graph } = graphOn(settingsFor(server.baseUrl));
    const result = await graph.invoke(message("Add a note: call mom"), threadConfig("http-500"));
    expect(result.phase).toBe("waiting_confirm");
    expect(result.planSteps.map((step) => step.content)).toEqual(["Add the note"]);
    expect([requestsOf("chat").length, requestsOf("plan").length]).toEqual([1, 3]);
    // The retried requests carry the same prompt.
    expect(new Set(requestsOf("plan").map((request) => JSON.stringify(request.body.messages))).size).toBe(1);
    expect(server.unexpected).toEqual([]);
  });

  test("a reply slower than the client timeout is abandoned and retried: the retry succeeds", async () => {
    // The first plan reply is held until the second plan request arrives: a client that waited for the slow reply
    // instead of abandoning it at its timeout would never send the second, and the run would not end. (Before, an
    // upper bound on the run's wall-clock time stood for this, which a loaded machine could trip.)
    let secondArrived!: () => void;
    const retried = new Promise<void>((resolve) => (secondArrived = resolve));
    const healthy = perStage({}, { chat: chatTask, plan: planDone });
    let plans = 0;
    server = await startFakeOpenAIServer(async (request) => {
      if (request.stage !== "plan") return healthy(request);
      plans += 1;
      if (plans > 1) {
        secondArrived();
        return planDone;
      }
      await retried;
      return planDone;
    });
    const { graph } = graphOn(settingsFor(server.baseUrl, { timeoutMs: 300, maxRetries: 1 }));
    const result = await graph.invoke(message("Add a note: call mom"), threadConfig("slow"));
    expect(result.phase).toBe("waiting_confirm");
    expect(requestsOf("plan")).toHaveLength(2);
    // The second request was sent after the first timed out (timers never fire early).
    const [first, second] = requestsOf("plan");
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(300);
  });

  test("HTTP 429 with Retry-After is retried, then succeeds", async () => {
    server = await startFakeOpenAIServer(
      perStage({ plan: [{ status: 429, headers: { "retry-after": "0" } }] }, { chat: chatTask, plan: planDone }),
    );
    const { graph } = graphOn(settingsFor(server.baseUrl, { maxRetries: 1 }));
    const result = await graph.invoke(message("Add a note: call mom"), threadConfig("rate-limited"));
    expect(result.phase).toBe("waiting_confirm");
    expect(requestsOf("plan")).toHaveLength(2);
  });

  test("HTTP 400 is not retried: one request, then ModelRequestRefusedError with the server's message", async () => {
    server = await startFakeOpenAIServer(
      perStage({ plan: [{ status: 400, message: "context length exceeded" }] }, { chat: chatTask, plan: planDone }),
    );
    const { graph } = graphOn(settingsFor(server.baseUrl));
    const error = await thrownBy(graph.invoke(message("Add a note: call mom"), threadConfig("bad-request")));
    expect(error).toBeInstanceOf(ModelRequestRefusedError);
    expect(error).toMatchObject({
      code: "MODEL_REQUEST_REFUSED",
      details: { stage: "plan", serverMessage: "context length exceeded" },
    });
    expect(requestsOf("plan")).toHaveLength(1);
  });

  test("failures past the bound: ModelUnavailableError after exactly 1 + maxRetries requests; the thread is kept and 'try again' resumes it", async () => {
    let healthy = false;
    const failing: FakeOpenAIReply = { status: 503, message: "overloaded" };
    server = await startFakeOpenAIServer((request) => {
      if (request.stage === "chat") return chatTask;
      if (!healthy) return failing;
      return request.stage === "plan" ? planDone : { status: 404 };
    });
    const { graph } = graphOn(settingsFor(server.baseUrl, { maxRetries: 2 }));
    const config = threadConfig("past-bound");
    const error = await thrownBy(graph.invoke(message("Add a note: call mom"), config));
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error).toMatchObject({
      code: "MODEL_UNAVAILABLE",
      message: expect.stringContaining('The plan model could not be reached (503 overloaded; model "fake-model" at '),
    });
    expect(requestsOf("plan")).toHaveLength(3);
    const kept = (await graph.getState(config)).values as TempoState;
    expect(kept.phase).toBe("planning");
    expect(kept.goal).toBe("Add a note: call mom");
    expect(kept.consecutiveCorrections).toBe(0);
    expect(stateProblems(kept, 3)).toEqual([]);

    healthy = true;
    const resumed = await graph.invoke(message("try again"), config);
    expect(resumed.phase).toBe("waiting_confirm");
    expect(resumed.goal).toBe("Add a note: call mom");
    expect(requestsOf("plan")).toHaveLength(4);
    expect(requestsOf("chat")).toHaveLength(1);
  });

  test("execute requests that hang past the timeout: ModelUnavailableError mid-execution, then the task resumes and finishes", async () => {
    let hanging = true;
    let executeCalls = 0;
    server = await startFakeOpenAIServer((request) => {
      if (request.stage === "chat") return chatTask;
      if (request.stage === "plan") return planDone;
      if (request.stage === "deliver") return { content: "Added your note." };
      if (hanging) return { hang: true };
      executeCalls += 1;
      return executeCalls === 1
        ? {
            content: text({
              speak: "Adding.",
              action: "confirm",
              tool_call: { name: "add_note", arguments: { text: "call mom" } },
            }),
          }
        : { content: text({ action: "done", goal_check: "added" }) };
    });
    const { graph, domain } = graphOn(settingsFor(server.baseUrl, { timeoutMs: 300, maxRetries: 1 }));
    const config = threadConfig("hanging-execute");
    await graph.invoke(message("Add a note: call mom"), config);
    const error = await thrownBy(graph.invoke(accept, config));
    expect(error).toMatchObject({
      code: "MODEL_UNAVAILABLE",
      details: { stage: "execute", reason: "Request timed out." },
    });
    expect(requestsOf("execute")).toHaveLength(2);
    const kept = (await graph.getState(config)).values as TempoState;
    expect([kept.phase, kept.planSteps.map((step) => step.status)]).toEqual(["executing", ["running"]]);

    hanging = false;
    const card = await graph.invoke(message("try again"), config);
    expect(interruptsOf(card)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(final.finalAnswer).toBe("Added your note.");
    expect(domain.applied).toHaveLength(1);
    expect(unpairedToolCalls(final.messages)).toEqual([]);
  });

  test("the deliver model failing gives the mechanical summary, with the failure noted", async () => {
    server = await startFakeOpenAIServer((request) => {
      if (request.stage === "chat") return chatTask;
      if (request.stage === "plan") return planDone;
      if (request.stage === "execute") return { content: text({ action: "done", goal_check: "nothing to add" }) };
      return { status: 500, message: "deliver is down" };
    });
    const { graph } = graphOn(settingsFor(server.baseUrl, { maxRetries: 1 }));
    const config = threadConfig("deliver-down");
    await graph.invoke(message("Add a note: call mom"), config);
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(requestsOf("deliver")).toHaveLength(2);
    // The step added nothing: the task changed nothing, so it is not completed (issue 31), and the facts say so.
    expect(final.outcome).toMatchObject({ kind: "failed", reason: "nothing was changed: no change was proposed" });
    expect(final.finalAnswer).toBe(
      mechanicalSummary({
        goal: "Add a note: call mom",
        planSteps: final.planSteps,
        lastError: null,
        outcome: final.outcome!,
      }),
    );
    expect(final.finalAnswer).toBe(
      "Task: Add a note: call mom\n\nOutcome: failed — nothing was changed: no change was proposed\n\nFinished 1 of 1 steps:\n\n1. [done] Add the note — nothing to add",
    );
    expect(final.lastError).toMatch(
      /^The deliver model failed \(500 deliver is down\); a mechanical summary was given\.$/,
    );
    expect(String(final.messages.at(-1)?.content)).toBe(final.finalAnswer);
  });

  test("an unreachable server (nothing listening) is a ModelUnavailableError too", async () => {
    server = await startFakeOpenAIServer(() => chatTask);
    const baseUrl = server.baseUrl;
    await server.close();
    const { graph } = graphOn(settingsFor(baseUrl, { maxRetries: 0 }));
    const error = await thrownBy(graph.invoke(message("Add a note"), threadConfig("nothing-listening")));
    expect(error).toBeInstanceOf(TempoError);
    expect(error).toMatchObject({ code: "MODEL_UNAVAILABLE", details: { stage: "chat" } });
  });
});

describe.each(postgresTargets())("(c) a process killed mid-execute, $kind postgres", (target) => {
  const worker = fileURLToPath(new URL("./support/schedule-worker.ts", import.meta.url));
  let database: TestPostgres;
  let openai: FakeOpenAIServer;
  const workers: WorkerProcess[] = [];
  const databases: Database[] = [];
  /**
   * The execute request that never gets an answer (the one the process is killed in): the one after the first
   * accepted place (list_tasks with find_free, the placement plan with the places and then=next_plan — whose
   * approval ends the place step with no model call — then this, the verify step's).
   */
  const HANGING_EXECUTE_REQUEST = 4;
  /**
   * A request scoped to named reviews: its closing check goes to the model (a whole-week arrangement's is ended by the
   * code, with no model call to be killed in).
   */
  const CRASH_REQUEST = "Help me arrange the matrix review and the essay next week";
  let hung: (request: { body: unknown }) => void;
  const hangingRequest = new Promise<{ body: unknown }>((resolve) => (hung = resolve));

  beforeAll(async () => {
    database = await target.start();
    let executeRequests = 0;
    // The "model" is the deterministic offline policy behind an OpenAI-compatible server: it decides from the prompt
    // alone, so a resumed process that sees the same checkpointed state asks the same thing and gets the same answer.
    openai = await startFakeOpenAIServer((request) => {
      if (request.stage === "execute") {
        executeRequests += 1;
        if (executeRequests === HANGING_EXECUTE_REQUEST) {
          hung(request);
          return { hang: true };
        }
      }
      return { content: decide(toLangChainMessages(request.body.messages ?? [])) };
    });
  });
  afterAll(async () => {
    for (const process of workers) process.kill();
    await Promise.all(workers.map((process) => process.exited));
    for (const open of databases) await open.close().catch(() => undefined);
    await openai?.close();
    await database?.stop();
  });

  /** The same conversation run alone, in this process, on in-memory data, from the sample week of `window`. */
  async function loneRun(window: ScheduleState["window"]): Promise<ConversationSummary> {
    // Seeded with the week the workers seeded (the coming week when they started), read off the database, so that the
    // answers name the same dates: the coming week of the clock now is another once the run crossed a Monday morning.
    const repository = new InMemoryScheduleRepository();
    await repository.seed(
      "student",
      sampleWeek({ monday: window.days[0]!.date!, timeZone: window.timeZone, weekly: true }),
    );
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
    });
    const config = threadConfig("lone", "student");
    let result: object = await graph.invoke(message(CRASH_REQUEST), config);
    for (let turn = 0; turn < 40 && interruptsOf(result).length > 0; turn += 1)
      result = await graph.invoke(accept, config);
    return summarizeConversation((await graph.getState(config)).values as TempoState, await repository.load("student"));
  }

  test("SIGKILL while the execute model is called; a new process resumes from the last checkpoint and finishes like a lone run", async () => {
    const config = threadConfig("crash-1", "student");
    const first = startWorker(worker, [database.url, openai.baseUrl, "crash-1", "student", "start", CRASH_REQUEST]);
    workers.push(first);
    const hangingPrompt = await Promise.race([
      hangingRequest,
      first.exited.then(() => Promise.reject(new Error(`the first worker exited early:\n${first.output()}`))),
    ]);
    expect(first.events.map((event) => event.action)).toEqual(["confirm_plan", "place"]);

    // Wait until the checkpoint after the accepted write is saved (LangGraph saves asynchronously), then kill.
    const observer = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
    databases.push(observer);
    // The message list is a delta channel, rebuilt from the checkpoint's history: read it through a graph's getState.
    const reader = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository: new InMemoryScheduleRepository() }),
      checkpointer: await createCheckpointer(observer),
    });
    await until(async () => {
      const values = (await reader.getState(config)).values as Partial<TempoState>;
      return (values.messages ?? []).some(
        (entry) => entry.getType() === "tool" && (entry as { name?: string }).name === "place",
      );
    });
    first.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    const requestsBeforeResume = openai.requests.length;

    const second = startWorker(worker, [database.url, openai.baseUrl, "crash-1", "student", "resume"]);
    workers.push(second);
    const final = (await second.waitFor((event) => event.event === "final")).summary as ConversationSummary;
    expect(await second.exited, second.output()).toEqual({ code: 0, signal: null });

    // The new process asked first what the killed one was waiting for: it resumed at the last checkpoint. The same
    // prompt, but for its "Now:" line — the clock moved on between the two processes.
    const resumedRequest = openai.requests[requestsBeforeResume]!;
    expect(resumedRequest.stage).toBe("execute");
    const withoutNow = (messages: unknown) => JSON.stringify(messages).replace(/Now: [^\\"]+/g, "Now: …");
    expect(JSON.stringify(resumedRequest.body.messages)).toMatch(/Now: \w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(withoutNow(resumedRequest.body.messages)).toBe(
      withoutNow((hangingPrompt.body as { messages: unknown }).messages),
    );

    const schedule = await new PostgresScheduleRepository(observer.pool).load("student");
    const lone = await loneRun(schedule.window);
    expect(final).toEqual(lone);
    expect(final.phase).toBe("done");
    expect(final.stepStatuses).toEqual(["done", "done"]); // place, verify (a scoped request: no refinement)
    expect(final.unpaired).toEqual([]);
    expect(final.reviewTasks.find((task) => task.id === "matrix-review")?.status).toBe("placed");
    expect(checkScheduleInvariants(schedule)).toEqual([]);
  });
});
