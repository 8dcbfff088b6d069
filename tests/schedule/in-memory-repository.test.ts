import { describe } from "vitest";
import { InMemoryScheduleRepository } from "../../tools/schedule/index.js";
import { repositoryContract } from "./repository-contract.js";

describe("InMemoryScheduleRepository", () => {
  repositoryContract({ makeRepository: (options) => new InMemoryScheduleRepository(options), roundTripRuns: 100 });
});
