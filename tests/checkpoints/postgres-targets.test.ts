import { describe, expect, it } from "vitest";

import { postgresTargets, realPostgresAvailable } from "../support/postgres.js";

describe("postgresTargets", () => {
  it("always offers the embedded server, and the real one when installed", () => {
    expect(postgresTargets({ realAvailable: false, requireReal: false }).map((target) => target.kind)).toEqual([
      "embedded",
    ]);
    expect(postgresTargets({ realAvailable: true, requireReal: true }).map((target) => target.kind)).toEqual([
      "embedded",
      "real",
    ]);
    expect(postgresTargets().map((target) => target.kind)).toEqual(
      realPostgresAvailable() ? ["embedded", "real"] : ["embedded"],
    );
  });

  it("fails loudly instead of skipping when the real server is required but missing", () => {
    expect(() => postgresTargets({ realAvailable: false, requireReal: true })).toThrow(
      /TEMPO_REQUIRE_REAL_POSTGRES=1 but PostgreSQL 15 is not installed/,
    );
  });
});
