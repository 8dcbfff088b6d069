/**
 * `npx tsx scripts/arrange-outputs.ts [--write FILE | --check FILE]`: what `propose_arrangement` and
 * `propose_candidates` give, byte for byte, on the sample week and on generated windows of 7 to 112 days (seeds 1, 3,
 * 7 and 11, as dense as the arrange-cost bench's): each tool's whole result (text, data and state) as JSON, with its
 * sha256. `--write` keeps them in FILE; `--check` compares against FILE and exits non-zero on any difference, so a
 * change meant to cut cost only (issue 46) can prove it changed no card, score or listing.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { applyWrites } from "../tools/schedule/candidate-writes.js";
import { windowOf } from "../bench/arrange-cost.js";
import {
  proposeArrangementTool,
  proposeCandidatesTool,
  sampleWeek,
  type ScheduleListing,
  type ScheduleState,
} from "../tools/schedule/index.js";

const weeks: Array<{ name: string; week: ScheduleState }> = [{ name: "sample", week: sampleWeek() }];
for (const seed of [1, 3, 7, 11])
  for (const days of [7, 14, 28, 56, 112])
    weeks.push({ name: `seed ${seed}, ${days} days`, week: windowOf(days, undefined, seed) });

const outputs: Record<string, string> = {};
for (const { name, week } of weeks) {
  const arranged = proposeArrangementTool.run(week, {});
  const card = (arranged.data as ScheduleListing).candidates[0];
  const after = card ? (applyWrites(week, card.writes) ?? week) : week;
  const listed = proposeCandidatesTool.run(after, { k: 5 });
  for (const [what, result] of [
    ["arrangement", arranged],
    ["listing after its card", listed],
  ] as const) {
    const text = JSON.stringify(result);
    outputs[`${name}: ${what}`] = createHash("sha256").update(text).digest("hex");
    const stop = (result.data as ScheduleListing).stop ?? "exact";
    if (stop !== "exact") console.warn(`${name}: ${what} stopped on its budget (timing may change it)`);
  }
}

const [flag, file] = process.argv.slice(2);
if (flag === "--write" && file) writeFileSync(file, `${JSON.stringify(outputs, null, 2)}\n`);
else if (flag === "--check" && file) {
  const kept = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  const differ = Object.keys({ ...kept, ...outputs }).filter((key) => kept[key] !== outputs[key]);
  for (const key of differ) console.log(`differs: ${key}`);
  console.log(`${Object.keys(outputs).length} outputs, ${differ.length} differ`);
  if (differ.length > 0) process.exitCode = 1;
} else for (const [key, digest] of Object.entries(outputs)) console.log(`${digest}  ${key}`);
