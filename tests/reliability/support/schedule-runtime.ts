/**
 * A Tempo wired for the schedule domain on a given Postgres — the official
 * PostgresSaver and the Postgres schedule repository (with the sample week
 * for new users) — driven by any stage models. The pieces are those of
 * `server/create-tempo.ts`; the models are injected, which the reliability
 * tests and the load bench need (a fake OpenAI server, the offline policy
 * with delays).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { MemoryStore } from "../../../memory/store.js";
import { createCheckpointer } from "../../../checkpoints/index.js";
import { openDatabase, type Database } from "../../../database/index.js";
import { createMemoryStore } from "../../../memory/store.js";
import type { WorkflowSettings } from "../../../config/configuration.js";
import type { TempoState } from "../../../kernel/state.js";
import { buildTempoGraph, type TempoGraph } from "../../../server/tempo-graph.js";
import type { StageModels } from "../../../models/stage-models.js";
import { createScheduleDomain, PostgresScheduleRepository, type ScheduleState } from "../../../tools/schedule/index.js";
import { withSampleSchedule } from "../../../tools/schedule/sample-seeding.js";
import { unpairedToolCalls } from "../../support/scripted.js";

export interface ScheduleTempo {
  graph: TempoGraph;
  database: Database;
  repository: PostgresScheduleRepository;
  close(): Promise<void>;
}

/**
 * Opens `databaseUrl` and builds the graph on it with `models`; with `memory`, the PostgresStore memory on the same
 * database too (as `createTempo` wires it).
 */
export async function openScheduleTempo(options: {
  databaseUrl: string;
  models: StageModels;
  poolSize?: number;
  settings?: Partial<WorkflowSettings>;
  memory?: boolean;
}): Promise<ScheduleTempo> {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, poolSize: options.poolSize ?? 10 });
  let store: MemoryStore | undefined;
  try {
    const checkpointer = await createCheckpointer(database);
    store = options.memory ? await createMemoryStore(database) : undefined;
    const repository = new PostgresScheduleRepository(database.pool);
    await repository.migrate();
    const domain = createScheduleDomain({ repository: withSampleSchedule(repository) });
    const graph = buildTempoGraph({ models: options.models, domain, checkpointer, store, settings: options.settings });
    return {
      graph,
      database,
      repository,
      close: async () => {
        await store?.stop();
        await database.close();
      },
    };
  } catch (error) {
    await store?.stop().catch(() => undefined);
    await database.close();
    throw error;
  }
}

/** What a finished schedule conversation comes to, for comparing runs. */
export interface ConversationSummary {
  phase: string;
  stepStatuses: string[];
  finalAnswer: string | null;
  /** Tool calls made, by name, in order. */
  toolCalls: string[];
  /** Pairing problems of the message list ([] when sound). */
  unpaired: string[];
  /** The user's review tasks: id, status and slots, sorted by id. */
  reviewTasks: Array<{ id: string; status: string; slots: string }>;
}

/** Summarises a thread's final state and the user's schedule. */
export function summarizeConversation(state: TempoState, schedule: ScheduleState): ConversationSummary {
  return {
    phase: state.phase,
    stepStatuses: state.planSteps.map((step) => step.status),
    finalAnswer: state.finalAnswer,
    toolCalls: state.messages.flatMap((message: BaseMessage) =>
      ((message as { tool_calls?: Array<{ name: string }> }).tool_calls ?? []).map((call) => call.name),
    ),
    unpaired: unpairedToolCalls(state.messages),
    reviewTasks: schedule.tasks
      .filter((task) => task.source === "task_item")
      .map((task) => ({
        id: task.id,
        status: task.status,
        slots: (task.slots ?? []).map((range) => `${range.day}:${range.start}-${range.end}`).join(","),
      }))
      .sort((left, right) => left.id.localeCompare(right.id)),
  };
}

/** A chat model that delegates to `inner` after a delay chosen by `delayFor(messages)`. */
export function delayed(inner: BaseChatModel, delayFor: (messages: BaseMessage[]) => number): BaseChatModel {
  const original = inner._generate.bind(inner);
  inner._generate = async (messages, options, runManager) => {
    await new Promise((resolve) => setTimeout(resolve, delayFor(messages)));
    return original(messages, options, runManager);
  };
  return inner;
}
