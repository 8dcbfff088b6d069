/**
 * A run's `configurable` values are checked before they are used (`config/configuration.ts`): `now` is an ISO 8601
 * date-time naming one moment — a real calendar date, a real time and a zone — `time_zone` an IANA zone `Intl`
 * knows, `max_rounds` a whole number from 1 to MAX_ROUNDS_LIMIT. A bad value is INVALID_CONFIGURATION naming the
 * field and the form it takes.
 */
import { describe, expect, test } from "vitest";
import {
  checkConfigurable,
  configurableProblems,
  ensureConfiguration,
  isIsoDateTime,
  MAX_ROUNDS_LIMIT,
} from "../../config/configuration.js";
import { ConfigurationError } from "../../errors/index.js";

/** The refusal `checkConfigurable` throws for `configurable`, or undefined when it passes. */
function refusal(configurable: Record<string, unknown>): ConfigurationError | undefined {
  try {
    checkConfigurable(configurable);
    return undefined;
  } catch (error) {
    return error as ConfigurationError;
  }
}

describe("configurable.now", () => {
  test("a date that does not exist is refused, not rolled over into the next month or year", () => {
    for (const now of [
      "2024-02-30T09:00:00Z",
      "2023-02-29T09:00:00Z",
      "2024-13-01T09:00:00Z",
      "2024-04-31T09:00:00Z",
      "2024-00-10T09:00:00Z",
    ]) {
      const error = refusal({ now });
      expect(error, now).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: "INVALID_CONFIGURATION", details: { field: "configurable.now" } });
      expect(error!.message).toContain(`configurable.now must be an ISO date-time`);
      expect(error!.message).toContain(JSON.stringify(now));
    }
    // The leap day of a leap year is a date.
    expect(refusal({ now: "2024-02-29T09:00:00Z" })).toBeUndefined();
  });

  test("words, a date alone, a time without a zone, a time that does not exist and other than strings are refused", () => {
    for (const now of [
      "tomorrow",
      "yesterday",
      "2024-03-14",
      "2024-03-14T09:00:00",
      "2024-03-14 09:00:00Z",
      "2024-03-14T24:00:00Z",
      "2024-03-14T09:60Z",
      "2024-03-14T09:00:61Z",
      "2024-03-14T09:00+0800",
      "2024-03-14T09:00+24:00",
      "",
      1710408600000,
      null,
    ]) {
      expect(refusal({ now }), String(now)).toMatchObject({
        code: "INVALID_CONFIGURATION",
        details: { field: "configurable.now" },
      });
    }
  });

  test("ISO date-times with a zone are read as the moment they name", () => {
    for (const [now, iso] of [
      ["2024-03-14T06:30:00Z", "2024-03-14T06:30:00.000Z"],
      ["2024-03-14T14:30:00+08:00", "2024-03-14T06:30:00.000Z"],
      ["2024-03-13T22:30-08:00", "2024-03-14T06:30:00.000Z"],
      ["2024-03-14T06:30:00.250Z", "2024-03-14T06:30:00.250Z"],
    ] as const) {
      expect(isIsoDateTime(now), now).toBe(true);
      expect(ensureConfiguration({ configurable: { now } }).now?.toISOString()).toBe(iso);
    }
  });
});

describe("configurable.time_zone and max_rounds", () => {
  test("a time zone Intl does not know is refused, naming the field and the form it takes", () => {
    for (const time_zone of ["Mars/Olympus", "", "Asia/Shanghai ", 8]) {
      const error = refusal({ time_zone });
      expect(error, String(time_zone)).toMatchObject({
        code: "INVALID_CONFIGURATION",
        details: { field: "configurable.time_zone" },
      });
      expect(error!.message).toMatch(
        /^configurable\.time_zone must be an IANA time zone such as "Asia\/Shanghai" or "UTC"; got /,
      );
    }
    expect(refusal({ time_zone: "America/Los_Angeles" })).toBeUndefined();
    expect(refusal({ time_zone: "UTC" })).toBeUndefined();
  });

  test('max_rounds must be a whole number from 1 to the limit: -1, 0, 1e9, 2.5, "x" and "5" are refused', () => {
    for (const max_rounds of [
      -1,
      0,
      1e9,
      MAX_ROUNDS_LIMIT + 1,
      2.5,
      "x",
      "5",
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
    ]) {
      const error = refusal({ max_rounds });
      expect(error, String(max_rounds)).toMatchObject({
        code: "INVALID_CONFIGURATION",
        details: { field: "configurable.max_rounds" },
      });
      expect(error!.message).toContain(`configurable.max_rounds must be a whole number from 1 to ${MAX_ROUNDS_LIMIT}`);
    }
    expect(ensureConfiguration({ configurable: { max_rounds: MAX_ROUNDS_LIMIT } }).maxRounds).toBe(MAX_ROUNDS_LIMIT);
    expect(() => ensureConfiguration({ configurable: { max_rounds: 1e9 } })).toThrow(ConfigurationError);
  });

  test("every bad value is named; values not given take their defaults", () => {
    const problems = configurableProblems({
      time_zone: "Mars/Olympus",
      now: "2024-02-30T09:00:00Z",
      max_rounds: -1,
      model_status_ms: 10,
    });
    expect(problems.map((problem) => problem.details?.field).sort()).toEqual([
      "configurable.max_rounds",
      "configurable.now",
      "configurable.time_zone",
    ]);
    expect(refusal({})).toBeUndefined();
    expect(refusal({ thread_id: "t", user_id: "u" })).toBeUndefined();
    const configuration = ensureConfiguration({ configurable: {} });
    expect(configuration.maxRounds).toBe(60);
    expect(configuration.timeZone).toBeUndefined();
    expect(configuration.now).toBeUndefined();
  });
});

describe("LangGraph's own keys", () => {
  test("a key beginning with \"__\" is refused, named; Tempo's own and the server's keys pass", () => {
    for (const key of ["__pregel_resume_map", "__pregel_checkpointer", "__pregel_resuming", "__anything"]) {
      const error = refusal({ [key]: { x: 1 } });
      expect(error, key).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({ code: "INVALID_CONFIGURATION", details: { field: `configurable.${key}` } });
      expect(error!.message).toContain(`configurable.${key} is LangGraph's own`);
    }
    expect(
      refusal({
        thread_id: "t",
        user_id: "u",
        tempo_seen_checkpoint: "c",
        langgraph_auth_user_id: "u",
        "x-request-id": "r",
      }),
    ).toBeUndefined();
  });
});
