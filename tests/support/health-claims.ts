/**
 * The health judge's claims held against the brute-force oracle (tests/support/schedule-oracle.ts), shared by the
 * oracle tests that judge it (tests/schedule/every-rule-oracle.test.ts, tests/schedule/midweek-claims.test.ts):
 * - "N review(s) fit" is the oracle's most, and the reviews it says fit fit together;
 * - those that fit and those that cannot are all the reviews to place;
 * - each review it says cannot fit, forced or proved, cannot join the ones that fit — or, when the caller reads
 *   deadlines (`deadlinePassed`), one it says cannot fit "(deadline passed)" has passed its deadline.
 */
import type { HealthReport } from "../../tools/schedule/health.js";
import type { OracleAnswer } from "./schedule-oracle.js";

/** What `healthClaimsAgainst` found. */
export interface HealthClaims {
  /** Each claim the oracle shows false, one line each. */
  problems: string[];
  /** The reviews the judge says fit. */
  fitting: string[];
  /** The reviews the judge says cannot fit and nothing can fix (`forced`), each one checked. */
  forced: string[];
}

/**
 * The claims of the health judge's `report` that the oracle's `answer` (of the same week, with the reviews to place
 * pending) shows false. `deadlinePassed`, when given, reads a "(deadline passed)" claim by the written rule; without
 * it, that claim is checked like any other forced one (the review cannot join the ones that fit).
 */
export function healthClaimsAgainst(
  report: HealthReport,
  answer: OracleAnswer,
  deadlinePassed?: (id: string) => boolean,
): HealthClaims {
  const problems: string[] = [];
  const { placeable, cannotFit } = report.feasibility;
  const fitting = report.issues.flatMap((issue) => (issue.kind === "unplaced" ? issue.tasks : []));
  if (placeable !== answer.most) problems.push(`the judge says ${placeable} fit, the oracle ${answer.most}`);
  if (!answer.fitsTogether(fitting))
    problems.push(`the reviews said to fit (${fitting.join(",")}) do not fit together`);
  if (placeable + cannotFit !== answer.ids.length)
    problems.push(`${placeable} fit and ${cannotFit} cannot, of ${answer.ids.length}`);
  const forced: string[] = [];
  for (const issue of report.issues) {
    if (issue.kind !== "cannot_fit") continue;
    const passed = issue.message.endsWith("(deadline passed)");
    for (const id of issue.tasks) {
      if (issue.forced) forced.push(id);
      if (passed && deadlinePassed) {
        if (!deadlinePassed(id)) problems.push(`${id}: "${issue.message}", yet its deadline has not passed`);
      } else if ((issue.forced || issue.message.includes("proved")) && answer.fitsTogether([...fitting, id]))
        problems.push(`${id}: "${issue.message}", yet it fits beside the others`);
    }
  }
  return { problems, fitting, forced };
}
