/**
 * `propose_recovery`: the change the at-risk notice names ("The change that recovers the most (…): …", `at-risk.ts`)
 * as candidate `v1` of ordinary writes (unplace, move or batch_move, place), for `choose_candidate` — so "recover",
 * said after the notice, is a card like any other, each write tried with the real tools on the week as it is now.
 * The listing is the at-risk report made again on that week: what it proved, and the change, or why there is none.
 */
import { z } from "zod";
import type { CandidateListing, DomainTool, ProposedCandidate } from "../../domain.js";
import { atRiskOf, type AtRiskReport } from "../at-risk.js";
import type { ScheduleState } from "../state.js";
import type { Language } from "../../../contracts/language.js";

/** The id of the one candidate a recovery listing offers. */
export const RECOVERY_CANDIDATE_ID = "v1";

/** Why a recovery listing is empty. */
export const NO_RECOVERY = {
  safe: "no review with a deadline is at risk",
  unproved:
    "the search found no place within its budget for some reviews, so nothing is proved and no change is listed",
  proved: "moving every review not yet started recovers none of them (proved)",
  traded:
    "moving the reviews not yet started only trades one review due for another, meeting no more deadlines (proved)",
  notFound: "no change moving the reviews not yet started was found to recover one (not proved)",
} as const;

/** Why a recovery listing is empty (`NO_RECOVERY`), in Chinese. */
const NO_RECOVERY_ZH: Readonly<Record<string, string>> = {
  [NO_RECOVERY.safe]: "没有有截止日期的复习处于风险中",
  [NO_RECOVERY.unproved]: "搜索在预算内没有为部分复习找到位置，无法证明，因此没有列出修改",
  [NO_RECOVERY.proved]: "即使挪动所有还没开始的复习也补不回来（已证明）",
  [NO_RECOVERY.traded]: "挪动还没开始的复习只会用一个到期的复习换另一个，赶上截止的不会更多（已证明）",
  [NO_RECOVERY.notFound]: "没有找到靠挪动还没开始的复习补回的方案（未证明）",
};

/** A recovery listing's `empty` (`NO_RECOVERY`) in `language`; another text as it is. */
export function recoveryEmptyText(empty: string, language: Language): string {
  return language === "zh" ? (NO_RECOVERY_ZH[empty] ?? empty) : empty;
}

/** True when `data` is a recovery listing (propose_recovery's data). */
export function isRecoveryListing(data: unknown): data is RecoveryListing {
  const listing = data as Partial<RecoveryListing> | undefined;
  return Array.isArray(listing?.candidates) && Array.isArray(listing.recovers) && Array.isArray(listing.displaces);
}

/** What propose_recovery found, as data: the candidate, the reviews it recovers, and those it takes off the week. */
export interface RecoveryListing extends CandidateListing {
  /** The at-risk reviews the change gives a place before their deadline, by id and name. */
  recovers: Array<{ id: string; name: string }>;
  /** Reviews without a deadline it takes off the week to make room (pending again), by id and name. */
  displaces: Array<{ id: string; name: string }>;
}

/** The recovery of `report` on `state` as a listing. */
export function recoveryListing(state: ScheduleState, report: AtRiskReport): RecoveryListing {
  const named = (id: string) => ({ id, name: state.tasks.find((task) => task.id === id)?.name ?? id });
  const { recovery } = report;
  if (!recovery) {
    const empty =
      report.atRisk.length === 0
        ? report.unproved.length > 0
          ? NO_RECOVERY.unproved
          : NO_RECOVERY.safe
        : report.noneProved === false
          ? NO_RECOVERY.notFound
          : report.trades
            ? NO_RECOVERY.traded
            : NO_RECOVERY.proved;
    return { candidates: [], recovers: [], displaces: [], empty };
  }
  const candidate: ProposedCandidate = {
    id: RECOVERY_CANDIDATE_ID,
    writes: recovery.writes,
    summary: recovery.said.join("; "),
  };
  return {
    candidates: [candidate],
    recovers: recovery.recovers.map(named),
    displaces: recovery.displaces.map(named),
  };
}

/** propose_recovery's text: why it is empty, or the candidate line, what it recovers and what it takes off. */
export function recoveryListingText(listing: RecoveryListing): string {
  const list = (entries: RecoveryListing["recovers"]) =>
    entries.map((entry) => `${entry.id} ${JSON.stringify(entry.name)}`).join(", ");
  if (listing.empty) return `nothing to recover: ${listing.empty}`;
  return [
    ...listing.candidates.map((candidate) => `${candidate.id}: ${candidate.summary}`),
    `recovers: ${list(listing.recovers)}`,
    ...(listing.displaces.length > 0 ? [`takes off the week: ${list(listing.displaces)}`] : []),
  ].join("\n");
}

/** Lists the change that recovers the most reviews at risk of missing their deadline. */
export const proposeRecoveryTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "propose_recovery",
  description:
    "Lists the change that recovers the most reviews at risk of missing their deadline (the at-risk notice's change: " +
    "moves placed reviews not yet started to make room, then places the ones at risk) as candidate v1, or why there " +
    "is none. Choose v1 with choose_candidate; nothing moves before its card.",
  schema: z.object({}).strict(),
  kind: "read",
  proposes: true,
  run(state) {
    const listing = recoveryListing(state, atRiskOf(state));
    return { ok: true, content: recoveryListingText(listing), data: listing };
  },
};
