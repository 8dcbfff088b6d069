/**
 * Which requests make `AppliedCards` settle a card before they are answered, and when it runs a settling run: the
 * server's loopback fetch is replaced by a recording double answering as `langgraph dev` does. The settling run on a
 * real server after a real crash is in served-crash.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { AppliedCards, waitingWriteIds } from "../../auth/applied-cards.js";
import type { ExecutionLog } from "../../tools/runner.js";

const LOOPBACK_FETCH = Symbol.for("langgraph_api:fetch");
type Call = { url: string; method: string; body?: unknown; marked: boolean };

const CARD_STATE = {
  values: { pending: { kind: "confirm_tool", tools: [{ id: "call-1" }, { id: "call-2" }] } },
  tasks: [{ interrupts: [{ value: { kind: "confirm_tool" } }] }],
  checkpoint: { checkpoint_id: "cp-7" },
};

let calls: Call[];
let states: Record<string, { status: number; body?: unknown }>;

beforeEach(() => {
  calls = [];
  states = {};
  (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH] = async (url: string, init: RequestInit = {}) => {
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ url, method: init.method ?? "GET", body, marked: new Headers(init.headers).has("x-tempo-settling") });
    if (url === "/threads/search") return Response.json([{ thread_id: "t-card" }, { thread_id: "t-idle" }]);
    if (url.endsWith("/runs/wait")) return new Response('{"phase":"done"}', { status: 200 });
    const threadId = decodeURIComponent(url.split("/")[2]!);
    const state = states[threadId] ?? { status: 404, body: { detail: "Thread not found" } };
    return Response.json(state.body, { status: state.status });
  };
});

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH];
});

/** A log holding `applied` as completed writes on every thread. */
function logOf(applied: string[]): ExecutionLog {
  return {
    completed: async (id: string) => (applied.includes(id) ? { content: "placed", applied: true } : undefined),
    append: async () => undefined,
  } as unknown as ExecutionLog;
}

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1:2024${path}`, { method, headers });
const runs = () => calls.filter((call) => call.url.endsWith("/runs/wait"));

describe("waitingWriteIds", () => {
  test("the tool-call ids of a write card that is waiting; nothing for any other state", () => {
    expect(waitingWriteIds(CARD_STATE)).toEqual(["call-1", "call-2"]);
    // Today's card, as the server returns the state (messages as JSON): its proposal's tool calls.
    const proposal = {
      type: "ai",
      id: "ai-1",
      content: "",
      tool_calls: [
        { id: "call-3", name: "place", args: {} },
        { id: "call-4", name: "place", args: {} },
      ],
    };
    const today = {
      ...CARD_STATE,
      values: {
        pending: { kind: "confirm_tool", messageId: "ai-1", summaries: {}, reason: "" },
        messages: [{ type: "human", id: "h-1", content: "go" }, proposal],
      },
    };
    expect(waitingWriteIds(today)).toEqual(["call-3", "call-4"]);
    expect(waitingWriteIds({ ...today, values: { ...today.values, messages: [] } })).toBeUndefined();
    expect(waitingWriteIds({ ...CARD_STATE, tasks: [{ interrupts: [] }] })).toBeUndefined();
    expect(waitingWriteIds({ ...CARD_STATE, values: { pending: { kind: "confirm_plan" } } })).toBeUndefined();
    expect(waitingWriteIds({ ...CARD_STATE, values: { pending: null } })).toBeUndefined();
    expect(
      waitingWriteIds({ ...CARD_STATE, values: { pending: { kind: "confirm_tool", tools: [{ id: 3 }] } } }),
    ).toBeUndefined();
    expect(waitingWriteIds({})).toBeUndefined();
  });
});

describe("AppliedCards", () => {
  test("a card whose every write is logged is settled by one run, as the caller, from the checkpoint read; the thread once per process", async () => {
    states["t-card"] = { status: 200, body: CARD_STATE };
    const cards = new AppliedCards(async () => logOf(["call-1", "call-2"]));
    await cards.beforeRead(request("GET", "/threads/t-card/state", { authorization: "Bearer a" }), "alice");
    expect(runs()).toEqual([
      {
        url: "/threads/t-card/runs/wait",
        method: "POST",
        body: { assistant_id: "tempo", command: { resume: { type: "accept", args: null } }, checkpoint_id: "cp-7" },
        marked: true,
      },
    ]);
    expect(calls.every((call) => call.marked)).toBe(true);
    // Read again (its history, the thread itself): checked already — only the read's check for a stopped run (one
    // state read each, no run: a thread waiting on a card is not stopped) is made again.
    await cards.beforeRead(request("POST", "/threads/t-card/history"), "alice");
    await cards.beforeRead(request("GET", "/threads/t-card"), "alice");
    expect(runs()).toHaveLength(1);
    expect(calls.map((call) => call.url)).toEqual([
      "/threads/t-card/state",
      "/threads/t-card/runs/wait",
      "/threads/t-card/state",
      "/threads/t-card/state",
      "/threads/t-card/state",
    ]);
  });

  test("a card with a write not logged, a thread the caller does not own, a server with no log: nothing settled", async () => {
    states["t-card"] = { status: 200, body: CARD_STATE };
    await new AppliedCards(async () => logOf(["call-1"])).beforeRead(request("GET", "/threads/t-card/state"), "alice");
    await new AppliedCards(async () => undefined).beforeRead(request("GET", "/threads/t-card/state"), "alice");
    await new AppliedCards(async () => logOf(["call-1", "call-2"])).beforeRead(
      request("GET", "/threads/t-other/state"),
      "alice",
    );
    expect(runs()).toEqual([]);
  });

  test("another user's probe does not count as the owner's check", async () => {
    const cards = new AppliedCards(async () => logOf(["call-1", "call-2"]));
    await cards.beforeRead(request("GET", "/threads/t-card/state"), "bob");
    states["t-card"] = { status: 200, body: CARD_STATE };
    await cards.beforeRead(request("GET", "/threads/t-card/state"), "alice");
    expect(runs().map((call) => call.url)).toEqual(["/threads/t-card/runs/wait"]);
  });

  test("a user's first search settles their interrupted threads; later searches check nothing", async () => {
    states["t-card"] = { status: 200, body: CARD_STATE };
    states["t-idle"] = { status: 200, body: { values: { pending: null }, tasks: [] } };
    const cards = new AppliedCards(async () => logOf(["call-1", "call-2"]));
    await cards.beforeRead(request("POST", "/threads/search"), "alice");
    expect(calls[0]).toMatchObject({
      url: "/threads/search",
      method: "POST",
      body: { status: "interrupted", limit: 100 },
    });
    expect(runs().map((call) => call.url)).toEqual(["/threads/t-card/runs/wait"]);
    const seen = calls.length;
    await cards.beforeRead(request("POST", "/threads/search"), "alice");
    expect(calls).toHaveLength(seen);
  });

  test("writes, runs, state updates and its own marked requests are not reads: nothing checked", async () => {
    states["t-card"] = { status: 200, body: CARD_STATE };
    const cards = new AppliedCards(async () => logOf(["call-1", "call-2"]));
    for (const [method, path] of [
      ["POST", "/threads/t-card/runs"],
      ["POST", "/threads/t-card/state"],
      ["PATCH", "/threads/t-card"],
      ["DELETE", "/threads/t-card"],
      ["GET", "/threads/t-card/runs/r-1/join"],
      ["GET", "/assistants/search"],
    ] as const) {
      await cards.beforeRead(request(method, path), "alice");
    }
    expect(calls).toEqual([]);
    // A mark that is not this process's own is no bypass.
    await cards.beforeRead(request("GET", "/threads/t-card/state", { "x-tempo-settling": "forged" }), "alice");
    expect(runs()).toHaveLength(1);
  });

  test("a read of a thread whose last run died (work left, no card, not busy) carries it on: one carry-on-only run, as the caller", async () => {
    const stopped = {
      values: { phase: "executing", pending: null },
      next: ["execute"],
      tasks: [{ name: "execute", interrupts: [] }],
      checkpoint: { checkpoint_id: "cp-9" },
    };
    states["t-stopped"] = { status: 200, body: stopped };
    const cards = new AppliedCards(async () => logOf([]));
    await cards.beforeRead(request("GET", "/threads/t-stopped/state", { authorization: "Bearer a" }), "alice");
    expect(runs()).toEqual([
      {
        url: "/threads/t-stopped/runs/wait",
        method: "POST",
        body: { assistant_id: "tempo", input: null, config: { configurable: { tempo_carry_on_only: true } } },
        marked: true,
      },
    ]);
    expect(calls.every((call) => call.marked)).toBe(true);
    // Two reads at once make one carry-on.
    calls = [];
    await Promise.all([
      cards.beforeRead(request("GET", "/threads/t-stopped"), "alice"),
      cards.beforeRead(request("GET", "/threads/t-stopped/history"), "alice"),
    ]);
    expect(runs()).toHaveLength(1);
  });

  test("a thread the server shows busy (a run in progress), waiting on a card, ended or failed is not carried on by a read", async () => {
    const stopped = { values: {}, next: ["execute"], tasks: [{ name: "execute", interrupts: [] }] };
    states["t-busy"] = { status: 200, body: { ...stopped, status: "busy" } };
    states["t-card"] = { status: 200, body: { ...CARD_STATE, next: ["confirm"] } };
    states["t-ended"] = { status: 200, body: { values: {}, next: [], tasks: [] } };
    states["t-failed"] = {
      status: 200,
      body: { ...stopped, tasks: [{ name: "execute", interrupts: [], error: "model down" }] },
    };
    const cards = new AppliedCards(async () => logOf([]));
    for (const threadId of ["t-busy", "t-card", "t-ended", "t-failed"])
      await cards.beforeRead(request("GET", `/threads/${threadId}/state`), "alice");
    expect(runs()).toEqual([]);
  });

  test("a failed check never fails the read, and the next read checks again", async () => {
    const fetch = (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH];
    delete (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH];
    const cards = new AppliedCards(async () => logOf(["call-1", "call-2"]));
    await expect(cards.beforeRead(request("GET", "/threads/t-card/state"), "alice")).resolves.toBeUndefined();
    (globalThis as Record<symbol, unknown>)[LOOPBACK_FETCH] = fetch;
    states["t-card"] = { status: 200, body: CARD_STATE };
    await cards.beforeRead(request("GET", "/threads/t-card/state"), "alice");
    expect(runs().map((call) => call.url)).toEqual(["/threads/t-card/runs/wait"]);
  });
});
