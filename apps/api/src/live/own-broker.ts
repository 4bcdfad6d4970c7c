import { contextBrokers, services } from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import { isOwnBroker } from "../pep/internal.ts";
import type { Records } from "../resources/records.ts";

/**
 * Whether the workspace's context broker is this process's embedded broker (its address is one of
 * this process's origins, pep/internal.ts), whose notifications to the live channel never leave the process.
 */
export async function usesOwnBroker(records: Records, workspaceId: string): Promise<boolean> {
  const workspace = await records.requireWorkspace(workspaceId);
  const service = await records.find(services, String(workspace.data.hasService));
  const broker = service && (await records.find(contextBrokers, String(service.data.hasContextBroker)));
  return broker ? isOwnBroker(address(broker.data)) : false;
}
