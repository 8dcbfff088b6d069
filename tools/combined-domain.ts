/**
 * Several tool domains served as one (`TEMPO_DOMAINS=schedule,notes`): the graph takes one `ToolDomain`, whose
 * state is each domain's state by name. A tool runs on its own domain's state and a write persists through its own
 * domain only; cards, open items and the prompt's description come from the domain a tool belongs to. One domain
 * is served as it is.
 */
import { ConfigurationError } from "../errors/index.js";
import { packsOf, type DomainTool, type OpenItem, type ToolDomain, type ToolRun, type Verification } from "./domain.js";

/** The state of combined domains: each domain's state under its name. */
export type CombinedState = Readonly<Record<string, unknown>>;

/** True when `domain` is domain `name`, or serves it among others (`combineDomains` names them "a+b"). */
export function serves(domain: Pick<ToolDomain, "name">, name: string): boolean {
  return domain.name === name || domain.name.split("+").includes(name);
}

/**
 * The part of `domain`'s state that is domain `name`'s: the state itself when `domain` is that domain, its part when
 * `domain` serves it among others (the state under each name), else undefined.
 */
export function partOf(domain: Pick<ToolDomain, "name">, name: string, state: unknown): unknown {
  if (domain.name === name) return state;
  return serves(domain, name) ? (state as CombinedState)[name] : undefined;
}

/** `domains` as one domain; a single domain is returned unchanged. Two tools of one name, or two domains of one name, are a ConfigurationError. */
export function combineDomains(domains: readonly ToolDomain[]): ToolDomain {
  if (domains.length === 0) throw new ConfigurationError("No tool domain to serve.");
  if (domains.length === 1) return domains[0]!;
  const owners = ownersOf(domains);
  const ownerOf = (tool: string) => owners.get(tool);
  const packs = packsOfAll(domains);
  const tools = domains.flatMap((domain) => domain.tools.map((tool) => onItsState(domain.name, tool)));
  return {
    name: domains.map((domain) => domain.name).join("+"),
    // A saved thread replans when any served domain changed, or the set of domains did.
    version: domains.map((domain) => `${domain.name}@${domain.version}`).join("+"),
    description: domains.map((domain) => `${domain.name}: ${domain.description}`).join("\n"),
    tools,
    packs,
    // The planner's live read, and the refinement loop: the first domain's that has one.
    preflight: domains.find((domain) => domain.preflight)?.preflight,
    refinement: domains.find((domain) => domain.refinement)?.refinement,
    // The closing check (and the end of a step placed by hand): the first domain's that has one, on its own state.
    ...verificationOf(domains.find((domain) => domain.verification)),
    // The task's decisions: each call kept to them by the domain that owns its tool.
    ...(domains.some((domain) => domain.decisions)
      ? {
          decisions: {
            read: (task, tool, args) => ownerOf(tool)?.decisions?.read(task, tool, args) ?? args,
            write(state: CombinedState, task, tool, args) {
              const owner = ownerOf(tool);
              return owner?.decisions?.write(state[owner.name], task, tool, args);
            },
          },
        }
      : {}),
    describeCall(state: CombinedState, tool: string, args: Record<string, unknown>, language) {
      const owner = ownerOf(tool);
      return owner?.describeCall?.(state[owner.name], tool, args, language);
    },
    // The first domain's time zone that has one.
    ...(domains.some((domain) => domain.timeZone)
      ? {
          async timeZone(userId: string) {
            for (const domain of domains) {
              const zone = await domain.timeZone?.(userId);
              if (zone !== undefined) return zone;
            }
            return undefined;
          },
        }
      : {}),
    // Each domain's own words in turn (each rewrites only what its tools wrote).
    refusal(state: CombinedState, data: unknown, language) {
      for (const domain of domains) {
        const said = domain.refusal?.(state[domain.name], data, language);
        if (said !== undefined) return said;
      }
      return undefined;
    },
    readable(state: CombinedState, text: string, language) {
      return domains.reduce((told, domain) => domain.readable?.(state[domain.name], told, language) ?? told, text);
    },
    stepSummary(summary: string, language) {
      return domains.reduce((told, domain) => domain.stepSummary?.(told, language) ?? told, summary);
    },
    changesLine(state: CombinedState, results: readonly string[], language, answer) {
      const lines = domains.flatMap(
        (domain) => domain.changesLine?.(state[domain.name], results, language, answer) ?? [],
      );
      return lines.length > 0 ? lines.join("\n\n") : undefined;
    },
    // Each domain folds the preferences into its own part, and reads them by its own rules.
    ...(domains.some((domain) => domain.withPreferences)
      ? {
          withPreferences(state: CombinedState, preferences) {
            return Object.fromEntries(
              domains.map((domain) => [
                domain.name,
                domain.withPreferences ? domain.withPreferences(state[domain.name], preferences) : state[domain.name],
              ]),
            );
          },
        }
      : {}),
    // What each domain has in place where the preferences rule out, on its own part.
    ...placedAgainstOf(domains),
    // Each domain reads the clock into its own part.
    ...(domains.some((domain) => domain.withClock)
      ? {
          withClock(state: CombinedState, now: Date) {
            return Object.fromEntries(
              domains.map((domain) => [
                domain.name,
                domain.withClock ? domain.withClock(state[domain.name], now) : state[domain.name],
              ]),
            );
          },
        }
      : {}),
    // A write card's frame is its tool's domain's, on that domain's part.
    ...cardFrameOf(domains, ownerOf),
    // The clock's writes of the first domain that has a clock (each tool belongs to one domain).
    ...clockOf(domains),
    // What is at risk, in every domain that can tell it.
    ...(domains.some((domain) => domain.atRisk)
      ? {
          atRisk(state: CombinedState, language) {
            const found = domains.flatMap((domain) => domain.atRisk?.(state[domain.name], language) ?? []);
            return found.length === 0
              ? undefined
              : { ids: found.flatMap((notice) => notice.ids), text: found.map((notice) => notice.text).join("\n\n") };
          },
        }
      : {}),
    // Each domain is given its own writes of the last card (by the tool that made each), to offer to undo them, and
    // the others' apart: a domain whose own are none can say the last change was another's, not that there was none.
    ...(domains.some((domain) => domain.withLastChange)
      ? {
          withLastChange(state: CombinedState, writes) {
            return Object.fromEntries(
              domains.map((domain) => {
                const own = writes.filter((write) => ownerOf(write.name) === domain);
                const elsewhere = writes.filter((write) => ownerOf(write.name) !== domain);
                return [
                  domain.name,
                  domain.withLastChange && writes.length > 0
                    ? domain.withLastChange(state[domain.name], own, elsewhere)
                    : state[domain.name],
                ];
              }),
            );
          },
        }
      : {}),
    ...(domains.some((domain) => domain.readsAsRequest)
      ? { readsAsRequest: (text: string) => domains.some((domain) => domain.readsAsRequest?.(text) === true) }
      : {}),
    ...(domains.some((domain) => domain.readPreferences)
      ? {
          readPreferences(text: string, origin) {
            const read = domains.flatMap((domain) =>
              domain.readPreferences ? [domain.readPreferences(text, origin)] : [],
            );
            return { add: read.flatMap((change) => change.add), lift: read.flatMap((change) => change.lift) };
          },
        }
      : {}),
    openItems(state: CombinedState): OpenItem[] {
      return domains.flatMap((domain) =>
        (domain.openItems?.(state[domain.name]) ?? []).map((item) => ({ ...item, domain: domain.name })),
      );
    },
    async load(userId: string): Promise<CombinedState> {
      const states = await Promise.all(domains.map((domain) => domain.load(userId)));
      return Object.fromEntries(domains.map((domain, index) => [domain.name, states[index]]));
    },
    async persist(userId, before: CombinedState, after: CombinedState, options) {
      // A tool changes its own domain's state only: that domain persists it.
      const changed = domains.filter((domain) => before[domain.name] !== after[domain.name]);
      if (changed.length !== 1)
        throw new Error(
          `A write changed ${changed.length} domains (${changed.map((domain) => domain.name).join(", ") || "none"}); a write belongs to one.`,
        );
      const [domain] = changed;
      return domain!.persist(userId, before[domain!.name], after[domain!.name], options);
    },
  };
}

/** Each tool's domain, by the tool's name. Two domains of one name, or a tool in two domains, are a ConfigurationError. */
function ownersOf(domains: readonly ToolDomain[]): Map<string, ToolDomain> {
  const owners = new Map<string, ToolDomain>();
  for (const domain of domains) {
    if (domains.filter((other) => other.name === domain.name).length > 1)
      throw new ConfigurationError(`Two tool domains are named "${domain.name}".`);
    for (const tool of domain.tools) {
      const owner = owners.get(tool.name);
      if (owner)
        throw new ConfigurationError(
          `The tool "${tool.name}" is in both the ${owner.name} and the ${domain.name} domain; tool names must be unique across the domains served.`,
        );
      owners.set(tool.name, domain);
    }
  }
  return owners;
}

/** Every domain's tool packs. Two packs of one name are a ConfigurationError. */
function packsOfAll(domains: readonly ToolDomain[]) {
  const packs = domains.flatMap((domain) => packsOf(domain));
  for (const pack of packs) {
    if (packs.filter((other) => other.name === pack.name).length > 1)
      throw new ConfigurationError(
        `Two tool packs are named "${pack.name}"; pack names must be unique across the domains served.`,
      );
  }
  return packs;
}

/** The combined card frame, when a domain has one: each call's frame is its tool's domain's, on that domain's part. */
function cardFrameOf(
  domains: readonly ToolDomain[],
  ownerOf: (tool: string) => ToolDomain | undefined,
): Pick<ToolDomain<CombinedState>, "cardFrame"> {
  if (!domains.some((domain) => domain.cardFrame)) return {};
  return {
    cardFrame: {
      of(state: CombinedState, call: { name: string; arguments: Record<string, unknown> }) {
        const owner = ownerOf(call.name);
        return owner?.cardFrame?.of(state[owner.name], call);
      },
      stale(state: CombinedState, call: { name: string; arguments: Record<string, unknown> }, frame: string) {
        const owner = ownerOf(call.name);
        return owner?.cardFrame?.stale(state[owner.name], call, frame);
      },
      seenIn(state: CombinedState, tool: string, frame: string) {
        const owner = ownerOf(tool);
        return owner?.cardFrame
          ? { ...state, [owner.name]: owner.cardFrame.seenIn(state[owner.name], tool, frame) }
          : state;
      },
      moved(state: CombinedState, tool: string, frame: string) {
        const owner = ownerOf(tool);
        return owner?.cardFrame?.moved?.(state[owner.name], tool, frame);
      },
      // Every domain's part that has a week.
      week(state: CombinedState) {
        return JSON.stringify(
          domains.flatMap((domain) =>
            domain.cardFrame?.week ? [[domain.name, domain.cardFrame.week(state[domain.name])]] : [],
          ),
        );
      },
    },
  };
}

/** `tool` of domain `name`, run on that domain's part of the combined state. */
function onItsState(name: string, tool: DomainTool<unknown>): DomainTool<CombinedState> {
  const combined = (state: CombinedState, { state: next, ...ran }: ToolRun<unknown>): ToolRun<CombinedState> =>
    next === undefined ? ran : { ...ran, state: { ...state, [name]: next } };
  const runAsync = tool.runAsync?.bind(tool);
  const cardArguments = tool.cardArguments?.bind(tool);
  // Every method that reads a state is given its own domain's part: a field left out here would read the whole.
  const { runAsync: _own, cardArguments: _shown, ...rest } = tool;
  return {
    ...rest,
    run(state: CombinedState, args: unknown) {
      return combined(state, tool.run(state[name], args));
    },
    ...(cardArguments
      ? { cardArguments: (state: CombinedState, args: unknown, language) => cardArguments(state[name], args, language) }
      : {}),
    ...(runAsync
      ? { runAsync: async (state: CombinedState, args: unknown) => combined(state, await runAsync(state[name], args)) }
      : {}),
  };
}

/** The combined domain's `clock`: the first served domain's that has one, on its part of the state. */
function clockOf(domains: readonly ToolDomain[]): Pick<ToolDomain<CombinedState>, "clock"> {
  const owner = domains.find((domain) => domain.clock);
  if (!owner?.clock) return {};
  const clock = owner.clock;
  return {
    clock: {
      due: (state: CombinedState, now: Date) => clock.due(state[owner.name], now),
      told: (after: CombinedState, results, language) => clock.told(after[owner.name], results, language),
      ...(clock.behind
        ? { behind: (state: CombinedState, now: Date, language) => clock.behind!(state[owner.name], now, language) }
        : {}),
    },
  };
}

/** `owner`'s verification on the combined state, scoped to its own open items; nothing for no owner. */
function verificationOf(owner: ToolDomain | undefined): { verification?: Verification<CombinedState> } {
  const own = owner?.verification;
  if (!owner || !own) return {};
  const placing = own.placing;
  return {
    verification: {
      step: own.step,
      ...(own.localized ? { localized: own.localized } : {}),
      domain: owner.name,
      check: (state, language) => own.check(state[owner.name], language),
      ...(placing
        ? {
            placing: {
              tools: placing.tools,
              stillFit: (state: CombinedState) => placing.stillFit(state[owner.name]),
              ...(placing.notByHand ? { notByHand: placing.notByHand } : {}),
            },
          }
        : {}),
    },
  };
}

/** `placedAgainstPreferences` of the domains that have it, each on its own part, their words joined. */
function placedAgainstOf(domains: readonly ToolDomain[]): Pick<ToolDomain<CombinedState>, "placedAgainstPreferences"> {
  if (!domains.some((domain) => domain.placedAgainstPreferences)) return {};
  return {
    placedAgainstPreferences(state: CombinedState, language) {
      const told = domains.flatMap((domain) => domain.placedAgainstPreferences?.(state[domain.name], language) ?? []);
      return told.length > 0 ? told.join("\n\n") : undefined;
    },
  };
}
