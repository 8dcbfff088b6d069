/**
 * `/prefs` and `/forget` typed by someone who wants to break them, while a write card waits. Each input has one clear
 * outcome — refused before the run (INVALID_INPUT, nothing written to the thread), or answered ("no such preference",
 * the list) with the card raised again — and afterwards the store holds what it held and the card still applies.
 * Found here: "/clear monday" (and "/clear" above a second line) wiped the conversation and the waiting card; "/prefs"
 * with a zero-width space was an unknown command; a 99,000-character reference or command name was said back whole;
 * "/forget １" (a full-width digit, as a Chinese input method types it) was no number; "／prefs" (its full-width
 * slash) was no command, and answered the card.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { messageText } from "../../contracts/message-text.js";
import { isTempoError } from "../../errors/index.js";
import { loadPreferences } from "../../memory/preferences.js";
import { preferencesNamespace } from "../../memory/namespaces.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

type Card = { action_requests: Array<{ name: string; args: unknown }> };

/** Every item the store holds, as namespace/key → value. */
async function storeContents(store: InMemoryStore): Promise<Record<string, unknown>> {
  const items = await store.search(["tempo"], { limit: 10_000 });
  return Object.fromEntries(items.map((item) => [`${item.namespace.join("/")}/${item.key}`, item.value]));
}

/** Two preferences said, /prefs shown on t-card, then a write card waiting there. */
async function waitingCard() {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  await converse(tempo, "nothing after 9pm", [], "t-card");
  await converse(tempo, "no studying on Saturdays", [], "t-card");
  await converse(tempo, "/prefs", [], "t-card");
  const config = threadConfig("t-card", "student");
  await tempo.graph.invoke({ messages: [new HumanMessage("move the vocabulary list to Friday")] }, config);
  const result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
  const card = interruptsOf(result)[0]!.value as Card;
  expect(card.action_requests[0]!.name).not.toBe("confirm_plan");
  return { store, tempo, config, card, profile: await loadPreferences(store, "student") };
}

/** What `text` did on the waiting thread: the refusal's message, or the answer and the card raised again. */
async function sent(tempo: Awaited<ReturnType<typeof offlineTempo>>, config: object, text: string) {
  try {
    const result = await tempo.graph.invoke({ messages: [new HumanMessage(text)] }, config);
    return { said: messageText(result.messages.at(-1)), card: interruptsOf(result)[0]?.value as Card | undefined };
  } catch (error) {
    expect(isTempoError(error) && error.code).toBe("INVALID_INPUT");
    return { refused: (error as Error).message };
  }
}

const notFound = (reference: string) =>
  `No preference ${JSON.stringify(reference)}: give its number (1-2) or its id, as /prefs lists them.`;
const LIST = /^Your standing preferences:\n1\. .*\n2\. .*\n\nRemove one with \/forget <number or id>\.$/;

describe("hostile /prefs and /forget while a write card waits", () => {
  test("each is refused before the run or answered, the store is as it was, and the card still applies", async () => {
    const { store, tempo, config, card } = await waitingCard();
    const stored = await storeContents(store);
    const long = "x".repeat(99_000);
    const cases: Array<[string, { said: string | RegExp } | { refused: string | RegExp }]> = [
      ["/forget 0", { said: notFound("0") }],
      ["/forget -1", { said: notFound("-1") }],
      ["/forget 1.5", { said: notFound("1.5") }],
      ["/forget 99999999999999999999", { said: notFound("99999999999999999999") }],
      ["/forget ١", { said: notFound("١") }],
      ["/forget '; drop table --", { refused: /^Usage: \/forget <number or id>\./ }],
      ["/forget ';drop_table--", { said: notFound("';drop_table--") }],
      ["/forget ../", { said: notFound("../") }],
      [
        "/forget ../../tempo/users/other/preferences/pref-0",
        { said: notFound("../../tempo/users/other/preferences/pref…") },
      ],
      ['/forget {"$ne":null}', { said: notFound('{"$ne":null}') }],
      ["/forget pref-%", { said: notFound("pref-%") }],
      // A long reference is said back in its first 40 characters; a message past the limit is refused whole.
      [`/forget ${long}`, { said: notFound(`${"x".repeat(40)}…`) }],
      [`/forget ${"x".repeat(100_000)}`, { refused: /^The message has 100008 characters; the limit is 100000\./ }],
      [`/${long}`, { refused: `Unknown command /${"x".repeat(39)}…. Commands: ` }],
      ["/prefs   ", { said: LIST }],
      ["/prefs\u200b", { said: LIST }],
      ["\u200b/prefs\u200b \u200b", { said: LIST }],
      ["/PREFS", { said: LIST }],
      // A Chinese input method's full-width slash and letters; direction marks around the command.
      ["／prefs", { said: LIST }],
      ["／ｐｒｅｆｓ", { said: LIST }],
      ["\u200f/prefs\u200e", { said: LIST }],
      ["／forget　１　２", { refused: /^Usage: \/forget <number or id>\./ }],
      ["/forget 1e3", { said: notFound("1e3") }],
      ["/prefs\n/forget 1", { refused: /^\/prefs takes no argument/ }],
      ["/forget 1\n/clear", { refused: /^Usage: \/forget <number or id>\./ }],
      ["/forget\n/clear", { said: notFound("/clear") }],
      ["/clear\n/forget 1", { refused: /^\/clear takes no argument/ }],
      ["/clear monday", { refused: /^\/clear takes no argument/ }],
    ];
    for (const [text, expected] of cases) {
      const before = await tempo.graph.getState(config);
      const outcome = await sent(tempo, config, text);
      const label = JSON.stringify(text.slice(0, 40));
      if ("refused" in expected) {
        if (typeof expected.refused === "string") expect(outcome.refused, label).toContain(expected.refused);
        else expect(outcome.refused, label).toMatch(expected.refused);
        expect((outcome.refused ?? "").length, label).toBeLessThan(1_000);
        const after = await tempo.graph.getState(config);
        expect(after.values.messages.map(messageText), label).toEqual(before.values.messages.map(messageText));
        expect(
          after.tasks.flatMap((task) => task.interrupts),
          label,
        ).toEqual(before.tasks.flatMap((task) => task.interrupts));
      } else {
        if (typeof expected.said === "string") expect(outcome.said, label).toBe(expected.said);
        else expect(outcome.said, label).toMatch(expected.said);
        expect(outcome.card?.action_requests, label).toEqual(card.action_requests);
      }
      expect(await storeContents(store), label).toEqual(stored);
    }

    const week = await tempo.repository.load("student");
    const applied = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    expect(interruptsOf(applied)).toEqual([]);
    expect(placeOf(await tempo.repository.load("student"), "vocabulary-list")).not.toBe(
      placeOf(week, "vocabulary-list"),
    );
  });

  test("full-width digits are the number (a Chinese input method types them), any case of the name is the command", async () => {
    const { store, tempo, config, card, profile } = await waitingCard();
    const kept = async () => (await loadPreferences(store, "student")).map((entry) => entry.id);
    const first = await sent(tempo, config, "/forget\u3000１");
    expect(first.said).toBe(`Removed: "${profile[0]!.text}". The next task no longer keeps to it.`);
    expect(first.card?.action_requests).toEqual(card.action_requests);
    expect(await kept()).toEqual([profile[1]!.id]);
    // Number 2 of the list shown, typed in capitals.
    expect((await sent(tempo, config, "/FORGET ２")).said).toBe(
      `Removed: "${profile[1]!.text}". The next task no longer keeps to it.`,
    );
    expect(await kept()).toEqual([]);
    expect(interruptsOf(await tempo.graph.invoke(resume({ type: "accept", args: null }), config))).toEqual([]);
  });
});

test("a user and a thread whose ids hold a ':' (a token's subject 'google:123') keep, list and forget preferences", async () => {
  // Every store refuses a namespace label with a ":": before, each run of such a user failed with InvalidNamespaceError.
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  await converse(tempo, "never on Monday", [], "t:1", "google:123");
  expect((await loadPreferences(store, "google:123")).map((entry) => entry.text)).toEqual(["never on Monday"]);
  expect((await converse(tempo, "/prefs", [], "t:1", "google:123")).said.at(-1)).toMatch(
    /^Your standing preferences:\n1\. never on Monday — stated in a message \(thread t:1\)/,
  );
  expect((await converse(tempo, "/forget 1", [], "t:1", "google:123")).said.at(-1)).toBe(
    'Removed: "never on Monday". The next task no longer keeps to it.',
  );
  expect(await loadPreferences(store, "google")).toEqual([]);
});

test("an entry the store API wrote under another key, or below the profile, is forgotten when /forget says so", async () => {
  // The store API lets a user write their own namespace. Before, an entry stored under key "k-1" with the id "pref-x"
  // was listed as [pref-x] and /forget deleted the key "pref-x": "Removed", and the rule stayed, listed and kept.
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  const entry = { kind: "avoid_day", value: 1, text: "never on Monday", createdAt: "2026-01-05T10:00:00.000Z" };
  await store.put(preferencesNamespace("student"), "k-1", { ...entry, id: "pref-x" });
  await store.put([...preferencesNamespace("student"), "below"], "k-2", { ...entry, id: "k-2", value: 2 });
  const listed = (await converse(tempo, "/prefs", [], "t-api")).said.at(-1)!;
  expect(listed.split("\n").slice(1, -2)).toEqual([expect.stringMatching(/^1\. never on Monday — .*\[k-1\]$/)]);
  expect((await converse(tempo, "/forget 1", [], "t-api")).said.at(-1)).toBe(
    'Removed: "never on Monday". The next task no longer keeps to it.',
  );
  expect(await loadPreferences(store, "student")).toEqual([]);
  expect(await store.get(preferencesNamespace("student"), "k-1")).toBeNull();
});
