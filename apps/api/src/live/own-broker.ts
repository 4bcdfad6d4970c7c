import { contextBrokers, services } from "@orrery/model";
import type { Config } from "../config.ts";
import { address } from "../context-data/broker-access.ts";
import type { Records } from "../resources/records.ts";

/**
 * The origins (scheme://host:port) at which this process's own embedded broker is reached:
 * PUBLIC_URL's, LIVE_NOTIFY_URL's, and loopback at PORT. A context broker record at one of them is
 * this process's embedded broker, whose notifications to the live channel never leave the process.
 *
 * The PEP (apps/api/src/pep/internal.ts) has its own test of the same question; the two are to be
 * one helper.
 */
export function ownOrigins(config: Pick<Config, "publicUrl" | "liveNotifyUrl" | "port">): Set<string> {
  const origins = new Set<string>();
  for (const url of [config.publicUrl, config.liveNotifyUrl]) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // not an address: nothing of ours
    }
  }
  for (const host of ["127.0.0.1", "localhost", "[::1]"]) origins.add(`http://${host}:${config.port}`);
  return origins;
}

/** Whether an address (a broker record's scheme://host:port[path]) is this process's own origin. */
export function isOwnAddress(config: Parameters<typeof ownOrigins>[0], url: string): boolean {
  try {
    return ownOrigins(config).has(new URL(url).origin);
  } catch {
    return false;
  }
}

/** Whether the workspace's context broker is this process's embedded broker. */
export async function usesOwnBroker(records: Records, config: Config, workspaceId: string): Promise<boolean> {
  const workspace = await records.requireWorkspace(workspaceId);
  const service = await records.find(services, String(workspace.data.hasService));
  const broker = service && (await records.find(contextBrokers, String(service.data.hasContextBroker)));
  return broker ? isOwnAddress(config, address(broker.data)) : false;
}
