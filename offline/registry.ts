/**
 * The offline policies this build has — the one list that names them, beside `tools/registry.ts`: each served domain
 * whose plug-in has an offline part here answers the prompts about it when no model key is set.
 */
import type { OfflinePlugin } from "./plugin.js";
import type { NamedOfflinePolicy } from "./router.js";
import { scheduleOfflinePlugin } from "./schedule/plugin.js";
import { todoOfflinePlugin } from "./todo/plugin.js";

/** Every domain's offline plug-in. */
export const OFFLINE_PLUGINS: readonly OfflinePlugin[] = [scheduleOfflinePlugin, todoOfflinePlugin];

/** The policies of the served `domains` (plug-in names, in their order) that have an offline part. */
export function offlinePoliciesFor(
  domains: readonly string[],
  plugins: readonly OfflinePlugin[] = OFFLINE_PLUGINS,
): NamedOfflinePolicy[] {
  return domains.flatMap((domain) => {
    const plugin = plugins.find((candidate) => candidate.domain === domain);
    return plugin ? [{ domain, policy: plugin.policy() }] : [];
  });
}
