/**
 * The tool domains this build can serve — the one list that names them. `TEMPO_DOMAINS` (default `schedule`) picks
 * which ones a runtime serves; adding a domain is writing its plug-in (`tools/plugin.ts`) and adding it here.
 */
import { ConfigurationError } from "../errors/index.js";
import type { DomainPlugin } from "./plugin.js";
import { schedulePlugin } from "./schedule/plugin.js";
import { todoPlugin } from "./todo/plugin.js";

/** Every domain plug-in, by name. */
export const DOMAIN_PLUGINS: readonly DomainPlugin[] = [schedulePlugin, todoPlugin];

/** The plug-ins named by `names`, in that order; a name no plug-in has, a repeat or an empty list is a ConfigurationError. */
export function pluginsNamed(
  names: readonly string[],
  plugins: readonly DomainPlugin[] = DOMAIN_PLUGINS,
): DomainPlugin[] {
  const known = plugins.map((plugin) => plugin.name).join(", ");
  if (names.length === 0) throw new ConfigurationError(`TEMPO_DOMAINS names no domain; set one or more of: ${known}.`);
  const seen = new Set<string>();
  return names.map((name) => {
    const plugin = plugins.find((candidate) => candidate.name === name);
    if (!plugin)
      throw new ConfigurationError(
        `TEMPO_DOMAINS names "${name}", which this build does not have; known domains: ${known}.`,
      );
    if (seen.has(name)) throw new ConfigurationError(`TEMPO_DOMAINS names "${name}" twice.`);
    seen.add(name);
    return plugin;
  });
}
