/**
 * `npm run eval` (issue 49 item 4) against the strict OpenAI server double on a free port, the offline policy as
 * its brain: the report's numbers on a few scenarios, and the bad input — a server that returns no usage, a model
 * that answers prose instead of a tool call, an eval interrupted half-way (SIGINT).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { promptSize } from "../../bench/model-calls.js";
import { runEval, parseEvalArguments, type EvalArguments } from "../../eval/run.js";
import { startRecordingProxy } from "../../eval/recording-proxy.js";
import { SCENARIOS } from "../../eval/scenarios.js";
import type { EvalReport, RunTotals } from "../../eval/report.js";
import type { ScenarioResult } from "../../eval/figures.js";
import { ConfigurationError } from "../../errors/index.js";
import { contentText, scheduleBrain, type DoubleRequest } from "../support/openai-double/brain.js";
import { startOpenAIDouble, type OpenAIDouble } from "../support/openai-double/index.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function outFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "tempo-eval-"));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

async function double(options: Parameters<typeof startOpenAIDouble>[0] = {}): Promise<OpenAIDouble> {
  const started = await startOpenAIDouble(options);
  cleanups.push(() => started.close());
  return started;
}

/** The environment pointing Tempo at `server`, as a user would set it. */
const environmentFor = (server: OpenAIDouble) => ({
  OPENAI_BASE_URL: server.baseUrl,
  OPENAI_API_KEY: "test",
  OPENAI_MODEL: "double-model",
  TEMPO_MODEL_MAX_RETRIES: "0",
});

/** Runs the eval's entry on `scenarios` against `server`; returns the JSON report as written, and the printed lines. */
async function evaluate(server: OpenAIDouble, scenarios: string[], extra: Partial<EvalArguments> = {}) {
  const out = await outFolder();
  const printed: string[] = [];
  await runEval({ out, scenarios, double: [], ...extra }, environmentFor(server), {
    print: (line) => printed.push(line),
  });
  const json = JSON.parse(await readFile(path.join(out, "report.json"), "utf8")) as EvalReport & {
    runs: Array<{ scenarios: ScenarioResult[]; totals: RunTotals }>;
  };
  return { json, printed, out };
}

/** Each scenario's model calls, by name. */
const callsOf = (scenarios: EvalReport["runs"][number]["scenarios"]) =>
  Object.fromEntries(scenarios.map((scenario) => [scenario.name, scenario.total.calls]));
/** The calls each named scenario's estimate counts on. */
const expectedCallsOf = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, SCENARIOS.find((scenario) => scenario.name === name)!.expectedCalls]));
const mentions = (request: DoubleRequest, text: string) =>
  (request.body.messages ?? []).some((message) => contentText(message.content).includes(text));

describe("npm run eval against the strict double", () => {
  test("demo, generated and move: every arrangement at the exact maximum, no rule problem, calls counted, valid JSON, markdown and chart", async () => {
    // A server that caches prompts as OpenAI does (cached_tokens for a repeated prefix of 1,024 tokens or more).
    const server = await double({ promptCache: true });
    const { json, printed, out } = await evaluate(server, ["demo", "generated", "move"]);
    expect(json.interrupted).toBe(false);
    expect(json.model).toBe("double-model");
    const [run] = json.runs;
    expect(run!.scenarios.map((scenario) => scenario.name)).toEqual(["demo", "generated", "move"]);
    for (const scenario of run!.scenarios) {
      expect(scenario.failure).toBeUndefined();
      expect(scenario.ruleProblems).toEqual([]);
      expect(scenario.scenarioProblems).toEqual([]);
      expect(scenario.honest).toBe(true);
      expect(scenario.total.calls).toBeGreaterThan(0);
      expect(scenario.total.promptTokens).toBeGreaterThan(0);
      expect(scenario.stages.execute?.calls).toBeGreaterThan(0);
    }
    const [demo, generated, move] = run!.scenarios;
    // The estimate's calls are the policy's own, each scenario's (the others': the test below).
    expect(callsOf(run!.scenarios)).toEqual(expectedCallsOf(["demo", "generated", "move"]));
    expect(demo!.placed).toBe(demo!.maximum);
    expect(demo!.maximum).toBe(8);
    expect(generated!.placed).toBe(generated!.maximum);
    expect(generated!.maximumProved).toBe(true);
    expect(move!.maximum).toBeNull();
    // Every request went through the proxy to the double, and none was refused.
    expect(run!.totals.model.calls).toBe(server.requests.length);
    expect(server.refusals).toEqual([]);
    expect(run!.totals).toMatchObject({ ruleProblems: 0, failures: 0, placed: 18, maximum: 18 });
    // The double returns usage: every call's tokens are the server's.
    expect(run!.totals.model.usageReported).toBe(run!.totals.model.calls);
    // Later calls of a task repeat the earlier ones' prefix (system prompt, tools).
    expect(run!.totals.model.prefixTokens).toBeGreaterThan(0);
    // The server's cached tokens are read and reported beside the share (its cache spans the scenarios, as a real
    // server's does, so they may exceed the within-task repeated prefix).
    const cached = run!.totals.model.cachedTokens;
    expect(cached).toBeGreaterThan(0);
    expect(cached).toBeLessThan(run!.totals.model.promptTokens);
    expect(run!.scenarios[0]!.stages.execute!.cachedTokens).toBeGreaterThan(0);
    // The estimate comes first, then a line per scenario, then the report's files.
    expect(printed[0]).toMatch(
      /^Tempo eval: 3 scenario\(s\) × 1 run\(s\) .* expect about 13 model calls × 8 s ≈ 104 s/,
    );
    expect(printed.at(-1)).toContain(path.join(out, "report.md"));
    const markdown = await readFile(path.join(out, "report.md"), "utf8");
    expect(markdown).toContain("| demo | 8 / 8 | 0 | ok | yes |");
    expect(markdown).toMatch(/\| \*\*total\*\* \| 18 \/ 18 \| 0 \|/);
    expect(markdown).not.toContain("not reported");
    // The execute calls' share (the goal's) and all calls', each named, beside the server's cached share.
    expect(markdown).toMatch(
      /Repeated prefix within a scenario: execute calls \d+\.\d % \(cached by the server: \d+\.\d %\) \(goal ≥ 60 %\); all calls \d+\.\d % \(cached by the server: \d+\.\d %\)\./,
    );
    const chart = await readFile(path.join(out, "report.svg"), "utf8");
    expect(chart).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(chart.match(/<rect x=/g)?.length).toBeGreaterThanOrEqual(6);
  });

  test("every other scenario: the calls the estimate counts on are what the offline policy needs", async () => {
    // Before, the estimate counted 45 calls for the nine scenarios; the policy needs 43 (four of them one fewer, the
    // two moves one more).
    const others = SCENARIOS.map((scenario) => scenario.name).filter(
      (name) => !["demo", "generated", "move"].includes(name),
    );
    const server = await double();
    const { json } = await evaluate(server, others);
    const scenarios = json.runs[0]!.scenarios;
    expect(scenarios.map((scenario) => scenario.failure)).toEqual(others.map(() => undefined));
    expect(callsOf(scenarios)).toEqual(expectedCallsOf(others));
  });

  test("a server that returns no usage: prompt tokens counted with o200k on the requests sent", async () => {
    const server = await double({ omitUsage: true });
    const { json } = await evaluate(server, ["read"]);
    const read = json.runs[0]!.scenarios[0]!;
    expect(read.failure).toBeUndefined();
    expect(read.total.usageReported).toBe(0);
    expect(read.total.cachedTokens).toBeNull();
    expect(read.total.promptTokens).toBe(
      server.requests.reduce((sum, request) => sum + promptSize(request.body).promptTokens, 0),
    );
    expect(read.total.completionTokens).toBeGreaterThan(0);
  });

  test("a model that answers prose instead of a tool call: a typed failure in the report, and the next scenario runs", async () => {
    const server = await double({
      brain: (request) =>
        request.stage === "execute" && mentions(request, "Help me arrange next week")
          ? "Sure! Your week looks great, I would keep it as it is."
          : scheduleBrain(request),
    });
    const { json } = await evaluate(server, ["demo", "move"]);
    const [demo, move] = json.runs[0]!.scenarios;
    expect(demo!.failure?.code).toMatch(/^[A-Z_]+$/);
    expect(demo!.ruleProblems).toEqual([]);
    expect(demo!.honest).toBe(true);
    expect(move!.failure).toBeUndefined();
    expect(move!.scenarioProblems).toEqual([]);
    expect(json.runs[0]!.totals.failures).toBe(1);
  });

  test("interrupted half-way (SIGINT): the partial report is written and the command exits non-zero", async () => {
    // The second scenario's requests never get an answer: the eval is stopped while it waits.
    const server = await double({ fault: (request) => (mentions(request, "Move my matrix") ? "hang" : undefined) });
    const out = await outFolder();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "eval/run.ts", "--scenarios", "read,move,swap", "--out", out],
      { cwd: ROOT, env: { ...process.env, ...environmentFor(server) }, stdio: ["ignore", "pipe", "pipe"] },
    );
    cleanups.push(async () => child.exitCode === null && child.kill("SIGKILL"));
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // Wait until the move scenario's first request hangs, then press Ctrl-C.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (server.requests.some((request) => request.fault === "hang")) {
          clearInterval(timer);
          resolve();
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`the eval ended before it was interrupted:\n${output}`));
      });
    });
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const json = JSON.parse(await readFile(path.join(out, "report.json"), "utf8")) as EvalReport;
    expect(json.interrupted).toBe(true);
    expect(json.runs[0]!.scenarios.map((scenario) => scenario.name)).toEqual(["read"]);
    expect(await readFile(path.join(out, "report.md"), "utf8")).toContain("**Interrupted**");
    expect(output).toContain("report (partial: interrupted)");
  });
});

describe("the day-off scenario's user reads a card as a person would", () => {
  test("a place, a move or a batch move onto Friday is turned down with the day-off feedback; others approved", () => {
    const dayOff = SCENARIOS.find((scenario) => scenario.name === "day-off")!;
    const verdict = (name: string, args: Record<string, unknown>) => JSON.stringify(dayOff.answer!({ name, args }));
    const onFriday = { task_id: "matrix-review", day: 5, slot_start: 9 };
    const onMonday = { task_id: "matrix-review", day: 1, slot_start: 9 };
    expect(verdict("place", onFriday)).toContain("Friday is my day off");
    expect(verdict("move", onFriday)).toContain("Friday is my day off");
    expect(verdict("batch_move", { moves: [onMonday, onFriday] })).toContain("Friday is my day off");
    expect(verdict("batch_move", { moves: [onMonday] })).not.toContain("Friday is my day off");
    expect(verdict("place", onMonday)).not.toContain("Friday is my day off");
  });
});

describe("the naive model beside the offline policy (--double policy,naive)", () => {
  test("both run on the same scenario; the naive model really places by hand, breaks no rule, ends honestly, reported side by side", async () => {
    const out = await outFolder();
    const report = await runEval(
      { out, scenarios: ["generated"], double: ["policy", "naive"] },
      {},
      { print: () => undefined },
    );
    const [policy, naive] = report.runs.map((run) => run.scenarios[0]!);
    expect(report.runs.map((run) => run.label)).toEqual([
      "double (offline policy)",
      "double (naive model: reads, places greedily, verifies)",
    ]);
    expect(policy!.failure).toBeUndefined();
    expect(naive!.failure).toBeUndefined();
    expect(naive!.ruleProblems).toEqual([]);
    expect(naive!.placed).toBeGreaterThan(0);
    expect(naive!.honest).toBe(true);
    // Issue 49 item 2's measurement: the naive model places by hand even where an arranging step binds only the
    // candidates (a call brings the pack in), so its run is its own, not the policy's. (On this week its greedy places
    // leave one review open, so it reads the week back and ends the step itself: docs/model-servers.md.)
    expect(naive!.total.calls).toBeGreaterThan(policy!.total.calls);
    expect(naive!.total.promptTokens).not.toBe(policy!.total.promptTokens);
    const markdown = await readFile(path.join(out, "report.md"), "utf8");
    expect(markdown).toContain("## Side by side");
    expect(markdown).toContain(
      `| double (naive model: reads, places greedily, verifies) | ${naive!.placed} / ${naive!.maximum} | 0 | ${naive!.total.calls} |`,
    );
  });
});

describe("a model that ignores the candidates costs at most 2 calls more on the demo (issue 49 item 2)", () => {
  test("naive: its hand-placed step ends in code once nothing is open; stubborn (by hand in every step) too", async () => {
    const out = await outFolder();
    const report = await runEval(
      { out, scenarios: ["demo"], double: ["policy", "naive", "stubborn"] },
      {},
      { print: () => undefined },
    );
    const [policy, naive, stubborn] = report.runs.map((run) => run.scenarios[0]!);
    for (const run of [policy!, naive!, stubborn!]) {
      expect(run.failure).toBeUndefined();
      expect(run).toMatchObject({ placed: 8, maximum: 8, ruleProblems: [], honest: true });
    }
    expect(naive!.total.calls).toBeGreaterThan(policy!.total.calls);
    expect(naive!.total.calls).toBeLessThanOrEqual(policy!.total.calls + 2);
    // The stubborn model also reads and checks in the refinement step, ignoring the listing the code made there: the
    // code ends that step once it passed over the listing twice, so it too costs at most 2 calls more.
    expect(stubborn!.total.calls).toBeGreaterThan(naive!.total.calls);
    expect(stubborn!.total.calls).toBeLessThanOrEqual(policy!.total.calls + 2);
  });
});

describe("the createAgent + HITL peer beside Tempo (--peer)", () => {
  test("on the demo scenario, same server and proxy: its calls, tokens and week in the report, and Tempo ÷ peer", async () => {
    const out = await outFolder();
    const printed: string[] = [];
    const report = await runEval(
      { out, scenarios: ["demo", "move"], double: ["policy"], peer: true },
      {},
      { print: (line) => printed.push(line) },
    );
    const [run] = report.runs;
    const [demo, move] = run!.scenarios;
    const peer = run!.peer!;
    // Tempo's scenarios ran as they do without the peer: its requests go to the policy, the peer's to its own brain.
    expect(demo!.failure).toBeUndefined();
    expect(move!.failure).toBeUndefined();
    expect(move!.scenarioProblems).toEqual([]);
    expect(peer.failure).toBeUndefined();
    expect(peer).toMatchObject({ name: "demo", placed: 8, maximum: 8, ruleProblems: [], honest: true, cards: 1 });
    expect(peer.total.calls).toBe(3);
    expect(peer.total.promptTokens).toBeGreaterThan(0);
    // The estimate counts the peer's 3 calls: demo 5 + move 4 + 3.
    expect(printed[0]).toMatch(/expect about 12 model calls/);
    expect(printed).toContainEqual(
      `double (offline policy) · peer (createAgent + HITL) on demo: placed 8 of 8, 0 rule problem(s), 3 calls, ${peer.total.promptTokens} prompt tokens`,
    );
    const markdown = await readFile(path.join(out, "report.md"), "utf8");
    expect(markdown).toContain(
      `Tempo ÷ peer on demo: ${demo!.total.calls} / 3 calls, prompt tokens ${(demo!.total.promptTokens / peer.total.promptTokens).toFixed(3)}×`,
    );
    const json = JSON.parse(await readFile(path.join(out, "report.json"), "utf8")) as EvalReport;
    expect(json.runs[0]!.peer?.placed).toBe(8);
  });
});

describe("the recording proxy", () => {
  test("keeps an idle client connection open far past Node's 5 s default (a pause between scenarios reset it)", async () => {
    const proxy = await startRecordingProxy("http://127.0.0.1:9/v1");
    cleanups.push(() => proxy.close());
    expect(proxy.keepAliveMs).toBeGreaterThanOrEqual(10 * 60_000);
  });
});

describe("the eval's arguments", () => {
  test("--out, --scenarios, --double; an unknown scenario or flag is a ConfigurationError", () => {
    expect(parseEvalArguments(["--out", "x", "--scenarios", "demo,move"])).toEqual({
      out: "x",
      scenarios: ["demo", "move"],
      double: [],
    });
    expect(parseEvalArguments(["--double", "policy,naive"]).double).toEqual(["policy", "naive"]);
    expect(parseEvalArguments(["--double"]).double).toEqual(["policy"]);
    expect(parseEvalArguments(["--peer"]).peer).toBe(true);
    expect(() => parseEvalArguments(["--scenarios", "demo,zebra"])).toThrow(ConfigurationError);
    expect(() => parseEvalArguments(["--scenarios", "demo,zebra"])).toThrow(/unknown scenario "zebra"/);
    expect(() => parseEvalArguments(["--fast"])).toThrow(ConfigurationError);
    expect(() => parseEvalArguments(["--out"])).toThrow(/--out needs a value/);
  });

  test("no server configured and no --double: a ConfigurationError before anything runs", async () => {
    await expect(
      runEval({ out: await outFolder(), scenarios: [], double: [] }, {}, { print: () => undefined }),
    ).rejects.toThrow(ConfigurationError);
  });
});
