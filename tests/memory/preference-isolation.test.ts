/**
 * One user's standing preferences are out of every other user's reach through `/prefs` and `/forget`, on the store
 * the product runs on (PostgresStore, whose prefix search is a LIKE: ids are built to collide in it) and on the
 * in-memory one: the other user lists none of them and removes none, by number or by the owner's own id typed as
 * theirs; the owner's entries and the list `/prefs` showed them are as they were. On the served graph the user is the
 * server's authenticated one: a `user_id` naming the owner is refused before the run, and the owner's thread is
 * refused to anyone else. A user or thread id with a ":" (a token's subject "google:123") works like any other: before,
 * every run of such a user failed with a raw InvalidNamespaceError.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore, type BaseStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { messageText } from "../../contracts/message-text.js";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { COLLIDING_USER_IDS } from "../support/colliding-ids.js";
import { useMemoryStore } from "../support/memory-store.js";
import { postgresTargets } from "../support/postgres.js";
import { threadConfig } from "../support/scripted.js";

/** Owner and other user, built to collide in a naive namespace, a LIKE prefix search or a label with a ":". */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ...COLLIDING_USER_IDS,
  ["alice", "alice.preferences"],
  ["google:123", "google"],
  ["a:b", "a~3ab"],
];

/** Every item under the store's users, as namespace/key → value. */
async function usersItems(store: BaseStore): Promise<Record<string, unknown>> {
  const items = await store.search(["tempo", "users"], { limit: 10_000 });
  return Object.fromEntries(items.map((item) => [`${item.namespace.join("/")}/${item.key}`, item.value]));
}

type Tempo = Awaited<ReturnType<typeof offlineTempo>>;

/** What `text` answers on `thread` for the configurable given (the last thing said). */
async function said(tempo: Tempo, text: string, configurable: Record<string, unknown>): Promise<string> {
  const result = await tempo.graph.invoke({ messages: [new HumanMessage(text)] }, { configurable });
  return messageText(result.messages.at(-1));
}

const asUser = (threadId: string, userId: string) => threadConfig(threadId, userId).configurable;

/** `owner` holds two preferences and has seen them listed on its own thread; what the store holds then. */
async function ownerListed(tempo: Tempo, store: BaseStore, owner: string, thread: string) {
  for (const [text, at] of [
    ["never on Monday", "2026-01-05T10:00:00.000Z"],
    ["nothing after 9pm", "2026-01-05T11:00:00.000Z"],
  ] as const)
    await applyPreferenceChange(store, owner, readSchedulePreferences(text), "stated", at);
  expect(await said(tempo, "/prefs", asUser(thread, owner))).toMatch(
    /^Your standing preferences:\n1\. never on Monday/,
  );
  return { profile: await loadPreferences(store, owner), items: await usersItems(store) };
}

async function expectOutOfReach(store: BaseStore, kind: string): Promise<void> {
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  for (const [index, pair] of PAIRS.entries()) {
    // A prefix of the pair's own keeps each pair's collision and keeps pairs apart (alice is in several).
    const [owner, other] = pair.map((id) => `p${index}-${id}`) as [string, string];
    const label = `${kind} ${JSON.stringify(owner)} / ${JSON.stringify(other)}`;
    const { profile, items } = await ownerListed(tempo, store, owner, `own-${index}`);
    expect(
      profile.map((entry) => entry.text),
      label,
    ).toEqual(["never on Monday", "nothing after 9pm"]);
    const mine = asUser(`other-${index}`, other);
    expect(await said(tempo, "/prefs", mine), label).toMatch(/^No standing preferences\./);
    for (const reference of ["1", "2", profile[0]!.id, profile[1]!.id])
      expect(await said(tempo, `/forget ${reference}`, mine), label).toBe(
        "You have no standing preferences to remove.",
      );
    // With a preference of their own, the owner's id is still no preference of theirs.
    await applyPreferenceChange(store, other, readSchedulePreferences("no studying on Saturdays"), "s", "2026-01-06");
    await said(tempo, "/prefs", mine);
    expect(await said(tempo, `/forget ${profile[0]!.id}`, mine), label).toBe(
      `No preference "${profile[0]!.id}": give its number (1-1) or its id, as /prefs lists them.`,
    );
    expect(await said(tempo, "/forget 2", mine), label).toMatch(/^No preference "2"/);
    // The owner's thread is the owner's: its list cannot be reached through it.
    expect(await thrownBy(said(tempo, "/forget 1", asUser(`own-${index}`, other))), label).toMatchObject({
      code: "THREAD_ACCESS_DENIED",
    });
    const after = await usersItems(store);
    for (const key of Object.keys(items)) expect(after[key], `${label}: ${key}`).toEqual(items[key]);
    expect(await loadPreferences(store, owner), label).toEqual(profile);
    // The owner's own /forget 1 still names the first entry it was shown.
    expect(await said(tempo, "/forget 1", asUser(`own-${index}`, owner)), label).toBe(
      'Removed: "never on Monday". The next task no longer keeps to it.',
    );
    expect(
      (await loadPreferences(store, other)).map((entry) => entry.text),
      label,
    ).toEqual(["no studying on Saturdays"]);
  }
}

describe.each(postgresTargets())("$kind postgres", (target) => {
  const postgres = useMemoryStore(target);

  test("another user never lists nor forgets the owner's preferences, for ids built to collide (PostgresStore)", async () => {
    await expectOutOfReach(postgres.store, "PostgresStore");
  });

  test("served: the authenticated user is the one whose list /forget reads; user_id naming the owner is refused", async () => {
    const store = postgres.store;
    const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
    const { profile, items } = await ownerListed(tempo, store, "served-alice", "served-alice-thread");
    // As the server runs it: the token's user, no user_id.
    const bob = (threadId: string, extra: Record<string, unknown> = {}) => ({
      thread_id: threadId,
      langgraph_auth_user_id: "served-bob",
      ...extra,
    });
    expect(await said(tempo, "/prefs", bob("served-bob-thread"))).toMatch(/^No standing preferences\./);
    expect(await said(tempo, `/forget ${profile[0]!.id}`, bob("served-bob-thread"))).toBe(
      "You have no standing preferences to remove.",
    );
    for (const configurable of [
      bob("served-bob-thread", { user_id: "served-alice" }),
      bob("served-alice-thread", { user_id: "served-alice" }),
    ])
      expect(await thrownBy(said(tempo, "/forget 1", configurable))).toMatchObject({ code: "IDENTITY_MISMATCH" });
    expect(await thrownBy(said(tempo, "/forget 1", bob("served-alice-thread")))).toMatchObject({
      code: "THREAD_ACCESS_DENIED",
    });
    expect(await usersItems(store)).toMatchObject(items);
    expect(await loadPreferences(store, "served-alice")).toEqual(profile);
  });
});

test("another user never lists nor forgets the owner's preferences, for ids built to collide (InMemoryStore)", async () => {
  await expectOutOfReach(new InMemoryStore(), "InMemoryStore");
});
