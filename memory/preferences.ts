/**
 * The user's standing preferences (docs/design.md#standing-preferences): a per-user profile in the store, beside
 * TaskState, one item a preference. Deduplicated by meaning — a preference's id is a digest of what it means, so the
 * same preference said twice (or stored by two runs at once) is one item — and kept consistent: a new preference that
 * contradicts an old one replaces it ("only on weekends" replaces "never on Saturday"), and a preference the user takes
 * back ("Mondays are fine now") is removed. Bounded: at most `MAX_PREFERENCES` entries, the oldest dropped first.
 */
import { createHash } from "node:crypto";
import type { BaseStore } from "@langchain/langgraph";
import {
  daysOfRule,
  describeRule,
  isScopable,
  ruleOf,
  type Preference,
  type PreferenceChange,
  preferenceFromOf,
  type PreferenceDraft,
  type PreferenceFrom,
  type PreferenceRule,
  UNKEPT_REASON_TEXT,
  unkeptReasonOf,
  type UnkeptPreference,
} from "../contracts/preferences.js";
import { withLocalMutex } from "../database/advisory-lock.js";
import { PreferenceNotFoundError } from "../errors/index.js";
import { preferencesNamespace } from "./namespaces.js";
import { withStoreLock } from "./store-lock.js";

/** Most entries a profile keeps (the prompts and the rules read them all). */
export const MAX_PREFERENCES = 30;

/** What a rule means, as one string: two rules of one meaning have one key. */
export function meaningKey(rule: PreferenceRule): string {
  const value =
    rule.kind === "note"
      ? rule.value
          .toLowerCase()
          .replace(/[\s\p{P}]+/gu, " ")
          .trim()
      : JSON.stringify(rule.value);
  // A rule said for some days has a meaning of its own; one for every day keeps the key (and id) it always had.
  const days = daysOfRule(rule);
  return `${rule.kind}:${value}${days ? `@${days.join(",")}` : ""}`;
}

/** The weekdays a rule holds on (every day for a rule without a scope). */
function weekdaysOf(rule: PreferenceRule): readonly number[] {
  return daysOfRule(rule) ?? [1, 2, 3, 4, 5, 6, 7];
}

/** True when `newer` holds on every day `older` does ("nothing before 10" covers "nothing before 9 on Mondays"). */
function covers(newer: PreferenceRule, older: PreferenceRule): boolean {
  const days = weekdaysOf(newer);
  return weekdaysOf(older).every((day) => days.includes(day));
}

/** The id of the entry of `rule`'s meaning. */
export function preferenceId(rule: PreferenceRule): string {
  return `pref-${createHash("sha256").update(meaningKey(rule)).digest("hex").slice(0, 10)}`;
}

/** True when `newer` contradicts `older`, so that `older` goes (the user changed their mind). */
export function contradicts(newer: PreferenceRule, older: PreferenceRule): boolean {
  if (meaningKey(newer) === meaningKey(older)) return false;
  // A rule of some days replaces only a rule of no other days: "nothing before 9 on Mondays" leaves "nothing before
  // 10 on weekends" alone, and "nothing before 10" replaces both.
  if (isScopable(newer) && isScopable(older) && !covers(newer, older)) return false;
  const part = (rule: PreferenceRule) => rule.kind === "part_of_day" || rule.kind === "only_part_of_day";
  if (part(newer) && part(older)) return true;
  // "Never in the evening" and "I prefer evenings" (or "only in the evening") cannot both hold: the newer stays.
  if (newer.kind === "avoid_part_of_day" && part(older)) return newer.value === older.value;
  if (older.kind === "avoid_part_of_day" && part(newer)) return newer.value === older.value;
  if (newer.kind === "only_days" && older.kind === "only_days") return true;
  // One hour of each kind: the newer replaces it.
  if ((newer.kind === "not_before_hour" || newer.kind === "not_after_hour") && older.kind === newer.kind) return true;
  if (newer.kind === "only_days" && older.kind === "avoid_day") return newer.value.includes(older.value);
  if (newer.kind === "avoid_day" && older.kind === "only_days") return older.value.includes(newer.value);
  return false;
}

/**
 * True when lifting `lifted` takes `entry` away: the same meaning, or (for a day) any rule that keeps the user off that
 * day, or (for an hour) a rule of the same hour on any of its days; a part of the day or an hour lifted on some days
 * ("Sunday mornings are fine now") reaches only the rules that hold on one of them (`narrowedBy` keeps the rest of
 * their days).
 */
function isLiftedBy(entry: PreferenceRule, lifted: PreferenceRule): boolean {
  if (meaningKey(entry) === meaningKey(lifted)) return true;
  const days = daysOfRule(lifted);
  if (days && !weekdaysOf(entry).some((day) => days.includes(day))) return false;
  if (lifted.kind === "avoid_day") return entry.kind === "only_days" && !entry.value.includes(lifted.value);
  if (lifted.kind === "only_days") return entry.kind === "only_days";
  // "Evenings are fine now" takes back any rule about the evening: a preference for it, or one that keeps it out.
  if (lifted.kind === "part_of_day" || lifted.kind === "only_part_of_day" || lifted.kind === "avoid_part_of_day")
    return (
      (entry.kind === "part_of_day" || entry.kind === "only_part_of_day" || entry.kind === "avoid_part_of_day") &&
      entry.value === lifted.value
    );
  // An hour lifted takes back the rule of that hour alone: "after 9pm is fine now" leaves "no studying after 8pm on
  // Fridays" (before, it took every rule of its kind away).
  if (lifted.kind === "not_before_hour" || lifted.kind === "not_after_hour")
    return entry.kind === lifted.kind && entry.value === lifted.value;
  return false;
}

/**
 * What stays of `entry` when `lifted` is taken back on some days only: the rule on its other days ("never in the
 * morning" with "Sunday mornings are fine now" is never in the morning on Monday to Saturday), or undefined when
 * nothing stays.
 */
function narrowedBy(entry: Preference, lifted: PreferenceRule): PreferenceDraft | undefined {
  const days = daysOfRule(lifted);
  if (!days || !isScopable(entry)) return undefined;
  const rest = weekdaysOf(entry).filter((day) => !days.includes(day));
  if (rest.length === 0) return undefined;
  const { id: _id, source: _source, from: _from, createdAt: _at, ...rule } = entry;
  const scoped = { ...rule, days: rest } as PreferenceDraft;
  return { ...scoped, text: describeRule(scoped) };
}

/**
 * The profile after `change`: what stays, what is added, what is removed, and what is never stored and why (an hour of
 * the night as the last, `unkeptReasonOf`: the rest of the change applies as it would without it). Pure.
 */
export function mergePreferences(
  existing: readonly Preference[],
  change: PreferenceChange,
  source: string,
  now: string,
  from?: PreferenceFrom,
): { profile: Preference[]; added: Preference[]; removed: Preference[]; unkept: UnkeptPreference[] } {
  let profile = [...existing];
  const removed: Preference[] = [];
  const drop = (keep: (entry: Preference) => boolean) => {
    removed.push(...profile.filter((entry) => !keep(entry)));
    profile = profile.filter(keep);
  };
  const narrowed: PreferenceDraft[] = [];
  for (const lifted of change.lift)
    drop((entry) => {
      if (!isLiftedBy(entry, lifted)) return true;
      const rest = narrowedBy(entry, lifted);
      if (rest) narrowed.push(rest);
      return false;
    });
  const added: Preference[] = [];
  const unkept: UnkeptPreference[] = [];
  for (const draft of [...narrowed, ...change.add]) {
    const reason = unkeptReasonOf(draft);
    if (reason) {
      const { text, ...rule } = draft;
      unkept.push({ reason, text: (text.trim() || describeRule(draft)).slice(0, 200), rule: rule as PreferenceRule });
      continue;
    }
    const id = preferenceId(draft);
    if (profile.some((entry) => entry.id === id)) continue;
    drop((entry) => !contradicts(draft, entry));
    // Bounded words: a long message names its preference in its first 200 characters.
    const entry = {
      ...(draft as PreferenceDraft),
      id,
      text: (draft.text.trim() || describeRule(draft)).slice(0, 200),
      source: source.slice(0, 200),
      ...(from ? { from } : {}),
      createdAt: now,
    } as Preference;
    profile.push(entry);
    added.push(entry);
  }
  // Bounded: the oldest go first.
  while (profile.length > MAX_PREFERENCES) removed.push(profile.shift()!);
  const gone = new Set(removed.map((entry) => entry.id));
  return {
    profile,
    added: added.filter((entry) => !gone.has(entry.id)),
    removed: removed.filter((entry) => !profile.some((kept) => kept.id === entry.id)),
    unkept,
  };
}

/**
 * The user's preferences, oldest first (the numbering `/prefs` shows). Only well-formed entries of the profile's own
 * namespace, each by its item's key: the store API lets a user write their own namespace (and below it), and an entry
 * the rules cannot read must not break a tool run, nor one /forget cannot reach stay listed.
 */
export async function loadPreferences(store: BaseStore, userId: string): Promise<Preference[]> {
  const namespace = preferencesNamespace(userId);
  const items = await store.search(namespace, { limit: MAX_PREFERENCES * 2 });
  return items
    .filter((item) => item.namespace.length === namespace.length)
    .flatMap((item) => {
      const entry = item.value as Partial<Preference>;
      const rule =
        entry && typeof entry.kind === "string"
          ? ruleOf({ kind: entry.kind, value: entry.value, days: (entry as { days?: unknown }).days })
          : undefined;
      if (
        !rule ||
        typeof entry.id !== "string" ||
        typeof entry.text !== "string" ||
        typeof entry.createdAt !== "string"
      )
        return [];
      return [
        {
          ...rule,
          // The item's key, which a removal deletes: an entry whose stored id says otherwise (written through the
          // store API) is still removed by /forget, never listed again after "Removed".
          id: item.key,
          text: entry.text,
          source: typeof entry.source === "string" ? entry.source : "",
          ...(preferenceFromOf(entry.from) ? { from: preferenceFromOf(entry.from) } : {}),
          createdAt: entry.createdAt,
        } as Preference,
      ];
    })
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * Runs `change` (a read of the profile, then its deletes and puts) when no other change of `userId`'s profile is under
 * way. Two at once read the same profile and wrote past each other: two "/forget 1" of one list both said "Removed",
 * and a preference lifted on some days while /forget removed the whole of it came back narrowed. In this process by
 * user, not by store: a run sees its store through a wrapper of its own (LangGraph batches each run's store calls),
 * and two stores of one user in a process only wait for each other. Across processes by the store's database: two
 * server workers on one Postgres wait for each other's Postgres advisory lock (`MemoryStore.exclusive`). A store
 * with no database lock (the LangGraph server's own) is held apart in this process only.
 */
function oneChangeAtATime<T>(store: BaseStore, userId: string, change: () => Promise<T>): Promise<T> {
  return withLocalMutex(`preferences:${userId}`, () =>
    withStoreLock(
      store,
      `tempo:preferences:${userId}`,
      change,
      "while it changes the same user's standing preferences",
    ),
  );
}

/** Applies `change` to the user's profile in the store; returns what was added and removed. */
export async function applyPreferenceChange(
  store: BaseStore,
  userId: string,
  change: PreferenceChange,
  source: string,
  now: string,
  from?: PreferenceFrom,
): Promise<{ added: Preference[]; removed: Preference[]; unkept: UnkeptPreference[] }> {
  if (change.add.length === 0 && change.lift.length === 0) return { added: [], removed: [], unkept: [] };
  return oneChangeAtATime(store, userId, async () => {
    const profile = await loadPreferences(store, userId);
    const { added, removed, unkept } = mergePreferences(profile, change, source, now, from);
    const namespace = preferencesNamespace(userId);
    for (const entry of removed) await store.delete(namespace, entry.id);
    for (const entry of added) await store.put(namespace, entry.id, { ...entry }, false);
    return { added, removed, unkept };
  });
}

/** An entry as a list showed it to the user: its id and its words (what `/forget <number>` names). */
export type ShownPreference = Pick<Preference, "id" | "text">;

/** Most characters of a reference said back: a 100,000-character `/forget` argument is not echoed whole. */
const SAID_REFERENCE_CHARACTERS = 40;

/** `reference` as a /forget reads it: full-width digits as digits ("１" is 1), and at most 40 characters said back. */
export function readReference(reference: string): { number?: number; id: string; said: string } {
  const id = reference.normalize("NFKC").trim();
  const characters = Array.from(id);
  const said =
    characters.length > SAID_REFERENCE_CHARACTERS ? `${characters.slice(0, SAID_REFERENCE_CHARACTERS).join("")}…` : id;
  return /^\d+$/.test(id) ? { number: Number(id), id, said } : { id, said };
}

/**
 * Removes one preference, named by its id or its number (1-based) in `shown`, the list as the user saw it — by
 * default the profile as it is now; throws `PreferenceNotFoundError` when the profile holds no such entry, or no
 * longer holds the one the list showed under that number (`details.gone` names it): a number never reaches an entry
 * the user was not shown under it.
 */
export async function removePreference(
  store: BaseStore,
  userId: string,
  reference: string,
  shown?: readonly ShownPreference[],
): Promise<Preference> {
  return oneChangeAtATime(store, userId, () => removeFromProfile(store, userId, reference, shown));
}

/** `removePreference`, with no other change of the profile under way. */
async function removeFromProfile(
  store: BaseStore,
  userId: string,
  reference: string,
  shown: readonly ShownPreference[] | undefined,
): Promise<Preference> {
  const profile = await loadPreferences(store, userId);
  const { number, id, said } = readReference(reference);
  const named = number === undefined ? id : (shown ?? profile)[number - 1]?.id;
  const entry = profile.find((candidate) => candidate.id === named);
  if (!entry) {
    const gone = number === undefined || !shown ? undefined : shown[number - 1];
    throw new PreferenceNotFoundError(
      gone
        ? `Number ${number} of the list /prefs showed ("${gone.text}") is no longer one of your standing preferences (removed or replaced since), so nothing was removed. /prefs lists them as they are now.`
        : profile.length === 0
          ? "You have no standing preferences to remove."
          : `No preference ${JSON.stringify(said)}: give its number (1-${profile.length}) or its id, as /prefs lists them.`,
      { reference: said, count: profile.length, ...(gone ? { gone: gone.text, number } : {}) },
    );
  }
  await store.delete(preferencesNamespace(userId), entry.id);
  return entry;
}

/**
 * The profile as numbered lines a person reads (`/prefs`): "1. never on Monday — card feedback on place (…) [pref-…]",
 * then a blank line before the footer: in Markdown (Agent Chat UI) a line right under a list item continues it.
 */
export function renderPreferenceList(profile: readonly Preference[]): string {
  if (profile.length === 0)
    return 'No standing preferences. Say one ("I never study on Mondays") or reject a card with one ("never on Monday").';
  return [
    "Your standing preferences:",
    ...profile.map(
      (entry, index) =>
        `${index + 1}. ${entry.text} — ${sourceOf(entry)}, ${entry.createdAt.slice(0, 10)} [${entry.id}]${notKept(entry)}`,
    ),
    "",
    "Remove one with /forget <number or id>.",
  ].join("\n");
}

/** The mark of an entry stored before its rule was never kept ("nothing after 01:00"): not applied, and why. */
function notKept(entry: Preference): string {
  const reason = unkeptReasonOf(entry);
  return reason ? ` (not applied: ${UNKEPT_REASON_TEXT[reason].en})` : "";
}

/** Where an entry was said, in English, its thread as `shortThread` shows it; an entry stored before, as stored. */
function sourceOf(entry: Preference): string {
  const from = entry.from;
  if (!from) return entry.source;
  const thread = `thread ${shortThread(from.threadId)}`;
  return from.kind === "message" ? `stated in a message (${thread})` : `card feedback on ${from.tool} (${thread})`;
}

/**
 * A thread's id as a list shows it: a client's ids are UUIDs, 36 characters in every line of `/prefs` — their first 8
 * (the start of the id in the client's address) and "…"; a short id whole.
 */
export function shortThread(threadId: string): string {
  return threadId.length > 12 ? `${threadId.slice(0, 8)}…` : threadId;
}

/** The profile as prompt lines: the words, what they mean to the rules, hard or soft. */
export function preferencePromptLines(profile: readonly Preference[]): string[] {
  return profile.map((entry) => {
    const meaning = describeRule(entry);
    const binding =
      entry.kind === "note"
        ? ""
        : unkeptReasonOf(entry)
          ? " (not applied: the tools keep no such hour)"
          : entry.kind === "part_of_day"
            ? " (soft)"
            : " (hard: the tools refuse otherwise)";
    return `- ${entry.text}${meaning.toLowerCase() !== entry.text.toLowerCase() && entry.kind !== "note" ? ` → ${meaning}` : ""}${binding}`;
  });
}
