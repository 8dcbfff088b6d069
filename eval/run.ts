/**
 * `npm run eval` — Tempo on a fixed set of scenarios against the user's own OpenAI-compatible server, measured and
 * reported (eval/report.ts). The model settings are read as Tempo reads them (config/environment.ts:
 * OPENAI_BASE_URL, OPENAI_API_KEY, TEMPO_MODEL, TEMPO_TOOL_CALLING, …; OPENAI_MODEL is taken for TEMPO_MODEL when
 * that is unset). Each scenario runs through the real graph (`buildTempoGraph` with the served domain as
 * `createTempoDependencies` builds it, a MemorySaver) and a recording proxy in front of the server, every card
 * answered by the scenario's scripted user.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 OPENAI_MODEL=qwen2.5-7b-instruct npm run eval
 *   npm run eval -- --out reports/qwen --scenarios demo,move
 *   npm run eval -- --double                # the strict server double, the offline policy as its brain
 *   npm run eval -- --double policy,naive   # ... and the naive model beside it (item 2's measurement)
 *   npm run eval -- --double policy,naive,stubborn   # ... and one that ignores the candidates in every step
 *   npm run eval -- --peer                  # ... and a createAgent + HITL peer on the demo task, same server (item 1)
 *
 * Before it starts it prints how long the run should take. Ctrl-C writes the report of the scenarios that finished
 * and exits with 130.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver, type Interrupt } from "@langchain/langgraph";
import { readSettings, type TempoSettings } from "../config/environment.js";
import { ConfigurationError, TempoError } from "../errors/index.js";
import { approveDecision } from "../review/resume.js";
import { createTempoDependencies, repositoryOf } from "../server/create-tempo.js";
import { buildTempoGraph } from "../server/tempo-graph.js";
import type { ScheduleRepository, ScheduleState } from "../tools/schedule/index.js";
import { failureOf, modelFigures, weekFigures, type ScenarioResult } from "./figures.js";
import { runPeerScenario, withPeerBrain } from "./peer.js";
import { startRecordingProxy, type RecordingProxy } from "./recording-proxy.js";
import { writeReport, type EvalReport, type EvalRun } from "./report.js";
import { pickScenarios, SCENARIOS, type CardRequest, type Scenario, type UserAnswer } from "./scenarios.js";

/** What the command line asks. */
export interface EvalArguments {
  out: string;
  scenarios: string[];
  /** Brains of the in-process server double to run against, instead of the configured server (empty: the server). */
  double: string[];
  secondsPerCall?: number;
  /** Also run the createAgent + humanInTheLoopMiddleware peer on the demo scenario, on the same server (eval/peer.ts). */
  peer?: boolean;
}

export const DEFAULT_OUT = ".tempo/eval";
/** The default guess of one model call's time, for the estimate (a hosted model answering a ~5k-token prompt with a short tool call). */
export const DEFAULT_SECONDS_PER_CALL = 8;
/** The brains the double can play. */
export const DOUBLE_BRAINS = ["policy", "naive", "stubborn"] as const;

/** Reads `--out DIR`, `--scenarios a,b`, `--double [policy,naive,stubborn]`, `--seconds-per-call N`, `--peer`; anything else is a ConfigurationError. */
export function parseEvalArguments(argv: readonly string[]): EvalArguments {
  const parsed: EvalArguments = { out: DEFAULT_OUT, scenarios: [], double: [] };
  for (let at = 0; at < argv.length; at += 1) {
    const flag = argv[at]!;
    const next = argv[at + 1];
    const value = () => {
      if (next === undefined || next.startsWith("--")) throw new ConfigurationError(`${flag} needs a value.`);
      at += 1;
      return next;
    };
    const list = (text: string) =>
      text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
    if (flag === "--out") parsed.out = value();
    else if (flag === "--scenarios") parsed.scenarios = list(value());
    else if (flag === "--double") {
      parsed.double = next === undefined || next.startsWith("--") ? ["policy"] : list(value());
      for (const brain of parsed.double)
        if (!(DOUBLE_BRAINS as readonly string[]).includes(brain))
          throw new ConfigurationError(`--double takes ${DOUBLE_BRAINS.join(" / ")}, got "${brain}".`);
    } else if (flag === "--seconds-per-call") {
      const seconds = Number(value());
      if (!(seconds > 0)) throw new ConfigurationError(`--seconds-per-call needs a positive number of seconds.`);
      parsed.secondsPerCall = seconds;
    } else if (flag === "--peer") parsed.peer = true;
    else
      throw new ConfigurationError(
        `unknown argument "${flag}"; npm run eval -- [--out DIR] [--scenarios a,b] [--double [policy,naive,stubborn]] [--seconds-per-call N] [--peer]`,
      );
  }
  pickScenarios(parsed.scenarios);
  return parsed;
}

/** The peer's calls on the demo task (read, one batch of writes, the answer): the basis of its estimate. */
export const PEER_EXPECTED_CALLS = 3;

/** The estimate printed before a run: the scenarios' expected calls (and the peer's) × seconds a call. */
export function estimate(
  scenarios: readonly Scenario[],
  runs: number,
  secondsPerCall: number,
  peer = false,
): EvalReport["estimate"] {
  const calls =
    runs * (scenarios.reduce((sum, scenario) => sum + scenario.expectedCalls, 0) + (peer ? PEER_EXPECTED_CALLS : 0));
  return {
    calls,
    secondsPerCall,
    seconds: calls * secondsPerCall,
    basis:
      "calls: what the offline policy needs per scenario through the strict double; seconds a call: --seconds-per-call, else a guess of 8 s for a hosted model (the report's latency shows the real one)",
  };
}

/** The scripted user's answers to a card, as the resume value. */
function answerCard(scenario: Scenario, requests: CardRequest[]): unknown {
  const answers = requests.map((request): UserAnswer =>
    scenario.answer ? scenario.answer(request) : request.name === "ask_user" ? "Yes, go ahead." : approveDecision(),
  );
  // A question card takes its answer's text; a write or plan card one decision per action request.
  if (requests.length === 1 && typeof answers[0] === "string") return answers[0];
  return { decisions: answers.map((answer) => (typeof answer === "string" ? approveDecision() : answer)) };
}

/** Settings for the graph: the user's, with the models pointed at the proxy (structured output kept as it would be). */
export function evalSettings(environment: Record<string, string | undefined>, proxyUrl: string): TempoSettings {
  const upstream = environment.OPENAI_BASE_URL?.trim();
  return readSettings({
    ...environment,
    OPENAI_BASE_URL: proxyUrl,
    OPENAI_API_KEY: environment.OPENAI_API_KEY?.trim() || "unused",
    TEMPO_MODEL: environment.TEMPO_MODEL?.trim() || environment.OPENAI_MODEL?.trim() || undefined,
    // "auto" is on for api.openai.com: the proxy's URL must not turn it off.
    TEMPO_STRUCTURED_OUTPUT: environment.TEMPO_STRUCTURED_OUTPUT?.trim() || (upstream ? "off" : "on"),
    TEMPO_SAMPLE_DATA: "false",
    TEMPO_DOMAINS: "schedule",
  });
}

/** The "now" of every scenario: the day before the sample week starts (its windows are dated March 2024). */
export const EVAL_NOW = new Date("2024-03-10T09:00:00Z");

/** Runs `scenarios` through the graph on the models `settings` name, the proxy recording; one result each, as each ends. */
export async function runScenarios(
  settings: TempoSettings,
  proxy: RecordingProxy,
  scenarios: readonly Scenario[],
  onResult: (result: ScenarioResult) => void,
  signal?: AbortSignal,
): Promise<void> {
  const dependencies = await createTempoDependencies(settings);
  const repository = repositoryOf<ScheduleRepository>(dependencies.domains, "schedule");
  const graph = buildTempoGraph({
    models: dependencies.models,
    domain: dependencies.domain,
    checkpointer: new MemorySaver(),
    settings: settings.workflow,
    now: () => EVAL_NOW,
  });
  for (const scenario of scenarios) {
    // Stopped (Ctrl-C): no scenario starts after it.
    if (signal?.aborted) return;
    const user = `eval-${scenario.name}`;
    const before: ScheduleState = scenario.week();
    await (repository as unknown as { seed(user: string, week: ScheduleState): Promise<void> }).seed(user, before);
    const config = { configurable: { thread_id: `eval-${scenario.name}-${proxy.exchanges.length}`, user_id: user } };
    const first = proxy.exchanges.length;
    let cards = 0;
    let failure: ScenarioResult["failure"];
    try {
      let result: object = await graph.invoke({ messages: [new HumanMessage(scenario.message)] }, config);
      for (; cards < 40; cards += 1) {
        const pending = ((result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [])[0];
        if (!pending) break;
        const requests = (pending.value as { action_requests: CardRequest[] }).action_requests;
        result = await graph.invoke(new Command({ resume: answerCard(scenario, requests) }), config);
      }
    } catch (error) {
      failure = failureOf(error);
    }
    const values = (await graph.getState(config)).values as {
      outcome?: { kind?: string } | null;
      finalAnswer?: string | null;
    };
    const after = await repository.load(user);
    const outcome = values.outcome?.kind ?? "none";
    const finalAnswer = values.finalAnswer ?? "";
    onResult({
      name: scenario.name,
      description: scenario.description,
      kind: scenario.kind,
      ...weekFigures(scenario, before, after, outcome, finalAnswer),
      outcome,
      finalAnswer,
      cards,
      ...modelFigures(proxy.exchanges.slice(first)),
      ...(failure ? { failure } : {}),
    });
  }
}

/** One pass to make: the label, the upstream server, and how to stop what was started for it. */
interface Pass {
  label: string;
  upstream: string;
  environment: Record<string, string | undefined>;
  stop: () => Promise<void>;
}

/** Starts the in-process server double with `brain` (tests/support/openai-double: strict as OpenAI). */
async function doublePass(brain: string, environment: Record<string, string | undefined>): Promise<Pass> {
  const { startOpenAIDouble } = await import("../tests/support/openai-double/index.js");
  const { naiveBrain, stubbornBrain } = await import("../tests/support/openai-double/naive-brain.js");
  const { scheduleBrain } = await import("../tests/support/openai-double/brain.js");
  // The peer's requests (if any) get its scripted model; Tempo's the brain asked for.
  const brains = {
    policy: { brain: scheduleBrain, label: "offline policy" },
    naive: { brain: naiveBrain, label: "naive model: reads, places greedily, verifies" },
    stubborn: { brain: stubbornBrain, label: "stubborn model: by hand in every step, the refinement's too" },
  };
  const chosen = brains[brain as keyof typeof brains] ?? brains.policy;
  const double = await startOpenAIDouble({ brain: withPeerBrain(chosen.brain), promptCache: true });
  return {
    label: `double (${chosen.label})`,
    upstream: double.baseUrl,
    environment: {
      ...environment,
      OPENAI_BASE_URL: double.baseUrl,
      OPENAI_API_KEY: "test",
      TEMPO_MODEL_MAX_RETRIES: "0",
    },
    stop: () => double.close(),
  };
}

/** Where secrets could hide in a URL (user info, query) taken out. */
const redacted = (url: string) => url.replace(/\/\/[^@/]*@/, "//").replace(/\?.*$/, "");

/**
 * The whole eval: prints the estimate, runs every pass, writes the report into `arguments_.out` (also when a pass
 * fails or `signal` aborts: then the report is marked interrupted). Returns the report.
 */
export async function runEval(
  arguments_: EvalArguments,
  environment: Record<string, string | undefined> = process.env,
  options: { signal?: AbortSignal; print?: (line: string) => void } = {},
): Promise<EvalReport> {
  const print = options.print ?? ((line: string) => console.log(line));
  const scenarios = pickScenarios(arguments_.scenarios);
  if (arguments_.double.length === 0 && !environment.OPENAI_BASE_URL?.trim() && !environment.OPENAI_API_KEY?.trim())
    throw new ConfigurationError(
      "npm run eval needs a model server: set OPENAI_BASE_URL (and OPENAI_MODEL, OPENAI_API_KEY if it wants one), or pass --double.",
    );
  const passes = arguments_.double.length > 0 ? arguments_.double : ["server"];
  const secondsPerCall = arguments_.secondsPerCall ?? (arguments_.double.length > 0 ? 0.5 : DEFAULT_SECONDS_PER_CALL);
  const model = environment.TEMPO_MODEL?.trim() || environment.OPENAI_MODEL?.trim() || "gpt-4o-mini";
  const report: EvalReport = {
    server:
      arguments_.double.length > 0
        ? "the strict OpenAI double (in process)"
        : redacted(environment.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1"),
    model: arguments_.double.length > 0 ? "scripted" : model,
    estimate: estimate(scenarios, passes.length, secondsPerCall, arguments_.peer),
    interrupted: false,
    runs: [],
  };
  print(
    `Tempo eval: ${scenarios.length} scenario(s) × ${passes.length} run(s) on ${report.model} at ${report.server}; expect about ${report.estimate.calls} model calls × ${secondsPerCall} s ≈ ${Math.ceil(report.estimate.seconds)} s (${report.estimate.basis}).`,
  );
  try {
    for (const passName of passes) {
      if (options.signal?.aborted) break;
      const pass: Pass =
        passName === "server"
          ? {
              label: model,
              upstream: environment.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1",
              environment,
              stop: async () => undefined,
            }
          : await doublePass(passName, environment);
      const proxy = await startRecordingProxy(pass.upstream);
      const run: EvalRun = { label: pass.label, scenarios: [] };
      report.runs.push(run);
      try {
        // Ctrl-C does not wait for the scenario under way: the report holds those that ended.
        const aborted = new Promise<void>((resolve) => {
          if (options.signal?.aborted) resolve();
          options.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        const running = runScenarios(
          evalSettings(pass.environment, proxy.baseUrl),
          proxy,
          scenarios,
          (result) => {
            if (options.signal?.aborted) return;
            run.scenarios.push(result);
            print(
              `${pass.label} · ${result.name}: placed ${result.placed}${result.maximum === null ? "" : ` of ${result.maximum}`}, ${result.ruleProblems.length} rule problem(s), ${result.total.calls} calls, ${result.total.promptTokens} prompt tokens${result.failure ? `, failed: ${result.failure.code}` : ""}`,
            );
          },
          options.signal,
        ).then(async () => {
          if (!arguments_.peer || options.signal?.aborted) return;
          const settings = evalSettings(pass.environment, proxy.baseUrl);
          const peer = await runPeerScenario(
            settings,
            proxy,
            SCENARIOS.find((each) => each.name === "demo")!,
            EVAL_NOW,
          );
          if (options.signal?.aborted) return;
          run.peer = peer;
          print(
            `${pass.label} · peer (createAgent + HITL) on demo: placed ${peer.placed} of ${peer.maximum}, ${peer.ruleProblems.length} rule problem(s), ${peer.total.calls} calls, ${peer.total.promptTokens} prompt tokens${peer.failure ? `, failed: ${peer.failure.code}` : ""}`,
          );
        });
        running.catch(() => undefined);
        await Promise.race([running, aborted]);
      } finally {
        await proxy.close();
        await pass.stop();
      }
    }
  } finally {
    report.interrupted =
      Boolean(options.signal?.aborted) ||
      report.runs.reduce((sum, run) => sum + run.scenarios.length, 0) < scenarios.length * passes.length;
    const files = await writeReport(arguments_.out, report);
    print(`report${report.interrupted ? " (partial: interrupted)" : ""}: ${files.join(", ")}`);
  }
  return report;
}

/** `npm run eval`: the arguments, Ctrl-C handled (the report of what finished, exit 130), exit 1 on a bad report. */
async function main(): Promise<void> {
  const controller = new AbortController();
  process.once("SIGINT", () => {
    console.log("interrupted: finishing the report of the scenarios that ended …");
    controller.abort();
  });
  try {
    const report = await runEval(parseEvalArguments(process.argv.slice(2)), process.env, { signal: controller.signal });
    const bad = report.runs.some((run) => run.scenarios.some((scenario) => scenario.ruleProblems.length > 0));
    process.exitCode = report.interrupted ? 130 : bad ? 1 : 0;
  } catch (error) {
    console.error(error instanceof TempoError ? `${error.code}: ${error.message}` : error);
    process.exitCode = controller.signal.aborted ? 130 : 1;
  }
  // The graph's model clients may keep sockets open; the report is written.
  process.exit(process.exitCode);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
