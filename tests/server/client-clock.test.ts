/**
 * A client's clock on the served path (`configurable.now`). The run's moment decides what has passed and rolls the
 * schedule's window on by the clock (`tools/schedule/clock-roll.ts`, a write with no card), so a client that sent a
 * `now` weeks ahead rolled its own week on — the old days gone to history, its reviews marked missed — and one in the
 * past placed into slots that had started. A served Tempo keeps runs to its own clock unless it is started with
 * `TEMPO_CLIENT_CLOCK=on` (tests, replays, the served check-in's `--now`): the auth handler refuses a `now` more than
 * `CLIENT_CLOCK_TOLERANCE_MS` off the server's clock (422, INVALID_CONFIGURATION, nothing stored), and the served
 * graph (`clientClock: "server"`) drops one that reaches it anyway (stored in a thread's config or an assistant).
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { createTempoAuth } from "../../auth/tempo-auth.js";
import { CLIENT_CLOCK_TOLERANCE_MS } from "../../config/configuration.js";
import { readAuthSettings, readSettings } from "../../config/environment.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { offlineTempo } from "../graph/support/offline-conversation.js";
import { threadConfig } from "../support/scripted.js";

type Handlers = { callbacks?: Record<string, (parameter: Record<string, unknown>) => unknown> };

/** The auth handler's answer to `event` with `value`: "allowed", or the refusal's status and JSON body. */
async function answer(auth: ReturnType<typeof createTempoAuth>, event: string, value: Record<string, unknown>) {
  const callbacks = (auth["~handlerCache"] as Handlers).callbacks!;
  const [resource, action] = event.split(":");
  const user = { identity: "ana", display_name: "ana", is_authenticated: true, permissions: [] };
  try {
    await callbacks[event]!({ event, resource, action, value, user, permissions: [] });
    return "allowed";
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return { status, body: JSON.parse(message) as Record<string, unknown> };
  }
}

const run = (now: string) => ({
  thread_id: "t-1",
  metadata: {},
  kwargs: { input: { messages: [{ role: "user", content: "hi" }] }, config: { configurable: { now } } },
});

describe("the auth handler", () => {
  const away = new Date(Date.now() + 14 * 86_400_000).toISOString();
  const past = "2024-03-18T07:00:00+08:00";

  test("refuses a run or an assistant whose now is off the server's clock (422, nothing stored); the clock itself passes", async () => {
    const auth = createTempoAuth(readAuthSettings({}));
    for (const now of [away, past]) {
      expect(await answer(auth, "threads:create_run", run(now))).toMatchObject({
        status: 422,
        body: {
          code: "INVALID_CONFIGURATION",
          field: "configurable.now",
          message: expect.stringContaining("this server keeps runs to its own clock"),
        },
      });
      expect(
        await answer(auth, "assistants:create", { graph_id: "tempo", config: { configurable: { now } }, metadata: {} }),
      ).toMatchObject({ status: 422, body: { field: "configurable.now" } });
    }
    const close = new Date(Date.now() + CLIENT_CLOCK_TOLERANCE_MS / 2).toISOString();
    expect(await answer(auth, "threads:create_run", run(close))).toBe("allowed");
    expect(await answer(auth, "threads:create_run", run(new Date().toISOString()))).toBe("allowed");
  });

  test("with TEMPO_CLIENT_CLOCK=on any date-time is taken (tests, replays); a malformed one is still refused", async () => {
    const auth = createTempoAuth(readAuthSettings({ TEMPO_CLIENT_CLOCK: "on" }));
    expect(await answer(auth, "threads:create_run", run(away))).toBe("allowed");
    expect(await answer(auth, "threads:create_run", run(past))).toBe("allowed");
    expect(await answer(auth, "threads:create_run", run("2024-02-30T09:00:00Z"))).toMatchObject({ status: 422 });
    expect(() => readAuthSettings({ TEMPO_CLIENT_CLOCK: "yes" })).toThrow(/TEMPO_CLIENT_CLOCK must be on or off/);
    expect(readSettings({}).clientClock).toBe(false);
    expect(readSettings({ TEMPO_CLIENT_CLOCK: "on" }).clientClock).toBe(true);
  });
});

describe("the served graph", () => {
  /** Sunday 17 March 2024, 08:00 in Shanghai: the sample week's last day, the server's clock here. */
  const SUNDAY = new Date("2024-03-17T08:00:00+08:00");
  /** Two weeks on: a client clock that would roll the window on by 14 days. */
  const LATER = "2024-03-31T09:00:00+08:00";
  const firstDay = async (tempo: Awaited<ReturnType<typeof offlineTempo>>) =>
    (await tempo.repository.load("student")).window.days[0]?.date;

  test("keeps to its own clock: a client's now weeks ahead rolls nothing, and the run answers", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => SUNDAY, { clientClock: "server" });
    const config = { configurable: { ...threadConfig("clock", "student").configurable, now: LATER } };
    const result = await tempo.graph.invoke({ messages: [new HumanMessage("hello")] }, config);
    expect(result.messages.at(-1)?.getType()).toBe("ai");
    expect(await firstDay(tempo)).toBe("2024-03-11");
    expect(result.movedOn ?? undefined).toBeUndefined();
  });

  test("honoured (TEMPO_CLIENT_CLOCK=on, and code that runs the graph itself), the same now rolls the window on", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => SUNDAY);
    const config = { configurable: { ...threadConfig("clock", "student").configurable, now: LATER } };
    await tempo.graph.invoke({ messages: [new HumanMessage("hello")] }, config);
    expect(await firstDay(tempo)).toBe("2024-03-25");
  });
});
