/**
 * The eval's report: JSON (every figure), Markdown (the tables a person reads) and an SVG bar chart (model calls
 * and prompt tokens per scenario, one bar per run), written into the output folder as report.json, report.md and
 * report.svg. A report of an interrupted eval holds the scenarios that finished and says so.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { addFigures, emptyModelFigures, type ModelFigures, type ScenarioResult } from "./figures.js";

/** One pass over the scenarios with one model (or one brain of the double). */
export interface EvalRun {
  /** What answered: the model name, or the double's brain. */
  label: string;
  scenarios: ScenarioResult[];
  /** The createAgent + humanInTheLoopMiddleware peer on the demo scenario, same server (`--peer`). */
  peer?: ScenarioResult;
}

export interface EvalReport {
  /** The server evaluated (credentials never appear). */
  server: string;
  model: string;
  /** The estimate printed before the run: scenarios × calls × seconds a call. */
  estimate: { calls: number; secondsPerCall: number; seconds: number; basis: string };
  /** True when the eval was stopped before every scenario ran (Ctrl-C): the report holds those that finished. */
  interrupted: boolean;
  runs: EvalRun[];
}

/** The totals of a run. */
export interface RunTotals {
  scenarios: number;
  /** Over the arranging scenarios: placed and the most that can be. */
  placed: number;
  maximum: number;
  /** Arranging scenarios placing fewer than the maximum. */
  belowMaximum: number;
  ruleProblems: number;
  scenarioProblems: number;
  honest: number;
  failures: number;
  stages: Record<string, ModelFigures>;
  model: ModelFigures;
}

/** Totals of a run's scenarios. */
export function runTotals(run: EvalRun): RunTotals {
  const stages: Record<string, ModelFigures> = {};
  const model = emptyModelFigures();
  const totals = {
    placed: 0,
    maximum: 0,
    belowMaximum: 0,
    ruleProblems: 0,
    scenarioProblems: 0,
    honest: 0,
    failures: 0,
  };
  for (const scenario of run.scenarios) {
    if (scenario.maximum !== null) {
      totals.placed += scenario.placed;
      totals.maximum += scenario.maximum;
      totals.belowMaximum += Number(scenario.placed < scenario.maximum);
    }
    totals.ruleProblems += scenario.ruleProblems.length;
    totals.scenarioProblems += scenario.scenarioProblems.length;
    totals.honest += Number(scenario.honest);
    totals.failures += Number(scenario.failure !== undefined);
    for (const [stage, figures] of Object.entries(scenario.stages))
      addFigures((stages[stage] ??= emptyModelFigures()), figures);
    addFigures(model, scenario.total);
  }
  return { scenarios: run.scenarios.length, ...totals, stages, model };
}

const number = (value: number) => value.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : "—");
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Cached share as the server reported it, or "not reported". */
const cachedShare = (figures: ModelFigures) =>
  figures.cachedTokens === null ? "not reported" : percent(figures.cachedTokens, figures.promptTokens);

/** The JSON report: every scenario's figures and each run's totals. */
export function reportJson(report: EvalReport): string {
  return JSON.stringify({ ...report, runs: report.runs.map((run) => ({ ...run, totals: runTotals(run) })) }, null, 2);
}

/** The repeated-prefix share of the execute calls (the goal's) and of all calls, each beside the server's cached share. */
export function shareLines(execute: ModelFigures | undefined, all: ModelFigures): string[] {
  const shares = (figures: ModelFigures) =>
    `${percent(figures.prefixTokens, figures.renderedTokens)} (cached by the server: ${cachedShare(figures)})`;
  return [
    `Repeated prefix within a scenario: execute calls ${execute ? shares(execute) : "none"} (goal ≥ 60 %); all calls ${shares(all)}.`,
    "",
  ];
}

/** The peer's line of a run, and Tempo's demo against it (calls, and prompt tokens as a ratio), when it ran. */
export function peerLines(run: EvalRun): string[] {
  const peer = run.peer;
  if (!peer) return [];
  const tempo = run.scenarios.find((scenario) => scenario.name === peer.name);
  return [
    `Peer on ${peer.name} (LangChain v1 \`createAgent\` + \`humanInTheLoopMiddleware\`, the same schedule tools and server): placed ${peer.placed} / ${peer.maximum ?? "—"}, ${peer.ruleProblems.length} rule problem(s), ${peer.total.calls} calls, ${number(peer.total.promptTokens)} prompt tokens${peer.failure ? `, failed: ${cell(`${peer.failure.code}: ${peer.failure.message}`)}` : ""}.`,
    ...(tempo
      ? [
          `Tempo ÷ peer on ${peer.name}: ${tempo.total.calls} / ${peer.total.calls} calls, prompt tokens ${(tempo.total.promptTokens / Math.max(1, peer.total.promptTokens)).toFixed(3)}× (goal ≤ 0.8, ≤ 4 calls).`,
        ]
      : []),
    "",
  ];
}

/** The Markdown report. */
export function reportMarkdown(report: EvalReport): string {
  const lines = [
    `# Tempo eval: ${report.model} at ${report.server}`,
    "",
    report.interrupted
      ? "**Interrupted**: the eval was stopped before every scenario ran; the tables hold those that finished."
      : "Every scenario ran.",
    "",
    `Estimated before the run: ${number(report.estimate.calls)} model calls × ${report.estimate.secondsPerCall} s ≈ ${seconds(report.estimate.seconds * 1000)} (${report.estimate.basis}).`,
    "",
  ];
  for (const run of report.runs) {
    const totals = runTotals(run);
    lines.push(
      `## ${run.label}`,
      "",
      "| scenario | placed / max | rule problems | check | honest | calls | prompt tokens | completion tokens | usage reported | cached (server) | repeated prefix | time | failure |",
      "| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    );
    for (const scenario of run.scenarios) {
      const model = scenario.total;
      lines.push(
        `| ${scenario.name} | ${scenario.maximum === null ? `${scenario.placed} (not arranging)` : `${scenario.placed} / ${scenario.maximum}${scenario.maximumProved ? "" : "?"}`} | ${scenario.ruleProblems.length} | ${scenario.scenarioProblems.length === 0 ? "ok" : cell(scenario.scenarioProblems.join("; "))} | ${scenario.honest ? "yes" : `NO: ${cell(scenario.honestyNote ?? "")}`} | ${model.calls} | ${number(model.promptTokens)} | ${number(model.completionTokens)} | ${model.usageReported} of ${model.calls} | ${cachedShare(model)} | ${percent(model.prefixTokens, model.renderedTokens)} | ${seconds(model.milliseconds)} | ${scenario.failure ? cell(`${scenario.failure.code}: ${scenario.failure.message}`) : ""} |`,
      );
    }
    const model = totals.model;
    lines.push(
      `| **total** | ${totals.placed} / ${totals.maximum} | ${totals.ruleProblems} | ${totals.scenarioProblems === 0 ? "ok" : `${totals.scenarioProblems} problem(s)`} | ${totals.honest} of ${totals.scenarios} | ${model.calls} | ${number(model.promptTokens)} | ${number(model.completionTokens)} | ${model.usageReported} of ${model.calls} | ${cachedShare(model)} | ${percent(model.prefixTokens, model.renderedTokens)} | ${seconds(model.milliseconds)} | ${totals.failures} |`,
      "",
      "Per stage (all scenarios):",
      "",
      "| stage | calls | prompt tokens | completion tokens | cached (server) | repeated prefix | mean latency |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...Object.entries(totals.stages).map(
        ([stage, figures]) =>
          `| ${stage} | ${figures.calls} | ${number(figures.promptTokens)} | ${number(figures.completionTokens)} | ${cachedShare(figures)} | ${percent(figures.prefixTokens, figures.renderedTokens)} | ${seconds(figures.calls > 0 ? figures.milliseconds / figures.calls : 0)} |`,
      ),
      "",
      ...shareLines(totals.stages.execute, totals.model),
      ...peerLines(run),
    );
  }
  if (report.runs.length > 1) {
    lines.push(
      "## Side by side",
      "",
      "| run | placed / max | rule problems | calls | prompt tokens | completion tokens | repeated prefix | failures |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...report.runs.map((run) => {
        const totals = runTotals(run);
        return `| ${run.label} | ${totals.placed} / ${totals.maximum} | ${totals.ruleProblems} | ${totals.model.calls} | ${number(totals.model.promptTokens)} | ${number(totals.model.completionTokens)} | ${percent(totals.model.prefixTokens, totals.model.renderedTokens)} | ${totals.failures} |`;
      }),
      "",
    );
  }
  lines.push(
    "placed / max: reviews placed at the end against the most that fit (the placement search; `?` when it stopped on its budget).",
    "Tokens: the server's usage where it returned one, else o200k counted on the request and the answer.",
    "cached (server): `usage.prompt_tokens_details.cached_tokens` over prompt tokens. repeated prefix: the share of prompt tokens",
    "repeating an earlier call's byte-identical prefix within the scenario (what a prompt cache can reuse).",
  );
  return `${lines.join("\n")}\n`;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"];

/** An SVG bar chart: per scenario, model calls and prompt tokens (thousands), one bar per run. */
export function reportChart(report: EvalReport): string {
  const names = [...new Set(report.runs.flatMap((run) => run.scenarios.map((scenario) => scenario.name)))];
  const panels = [
    { title: "model calls", value: (scenario: ScenarioResult) => scenario.total.calls },
    { title: "prompt tokens (k)", value: (scenario: ScenarioResult) => scenario.total.promptTokens / 1000 },
  ];
  const barWidth = 14;
  const groupWidth = Math.max(1, report.runs.length) * barWidth + 16;
  const panelHeight = 160;
  const left = 40;
  const width = left + Math.max(1, names.length) * groupWidth + 20;
  const height = panels.length * (panelHeight + 60) + 30 + report.runs.length * 16;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
  ];
  panels.forEach((panel, index) => {
    const top = 20 + index * (panelHeight + 60);
    const values = report.runs.flatMap((run) => run.scenarios.map(panel.value));
    const highest = Math.max(1, ...values);
    parts.push(
      `<text x="${left}" y="${top - 6}" font-size="12">${escapeXml(panel.title)} (max ${highest.toFixed(1)})</text>`,
      `<line x1="${left}" y1="${top + panelHeight}" x2="${width - 10}" y2="${top + panelHeight}" stroke="#333"/>`,
    );
    names.forEach((name, group) => {
      const x = left + group * groupWidth;
      report.runs.forEach((run, runIndex) => {
        const scenario = run.scenarios.find((each) => each.name === name);
        if (!scenario) return;
        const barHeight = (panel.value(scenario) / highest) * panelHeight;
        parts.push(
          `<rect x="${x + runIndex * barWidth}" y="${(top + panelHeight - barHeight).toFixed(1)}" width="${barWidth - 2}" height="${barHeight.toFixed(1)}" fill="${COLOURS[runIndex % COLOURS.length]}"><title>${escapeXml(`${run.label} ${name}: ${panel.value(scenario).toFixed(1)}`)}</title></rect>`,
        );
      });
      parts.push(
        `<text x="${x}" y="${top + panelHeight + 12}" transform="rotate(30 ${x} ${top + panelHeight + 12})">${escapeXml(name)}</text>`,
      );
    });
  });
  report.runs.forEach((run, index) => {
    const y = height - 10 - (report.runs.length - 1 - index) * 16;
    parts.push(
      `<rect x="${left}" y="${y - 9}" width="10" height="10" fill="${COLOURS[index % COLOURS.length]}"/>`,
      `<text x="${left + 14}" y="${y}">${escapeXml(run.label)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** Writes report.json, report.md and report.svg into `folder`; returns their paths. */
export async function writeReport(folder: string, report: EvalReport): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const files: Array<[string, string]> = [
    ["report.json", reportJson(report)],
    ["report.md", reportMarkdown(report)],
    ["report.svg", reportChart(report)],
  ];
  for (const [name, text] of files) await writeFile(path.join(folder, name), text, "utf8");
  return files.map(([name]) => path.join(folder, name));
}
