import { contextBrokers, services, workspaces } from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import type { Item, Records } from "../resources/records.ts";
import { isOwnBroker } from "./internal.ts";

/** How long the map of tenants to workspaces is used before it is read again (another process's edits). */
const TTL_MS = 5_000;

/**
 * Which workspaces use which tenant of this process's embedded broker: a workspace on a service whose
 * context broker is this process's own (its address), on the workspace's tenant when the broker is
 * multi-tenant, else on the default tenant (""). Read from the records at most every few seconds,
 * and again at once after a change of a broker, a service or a workspace in this process.
 */
interface Tenants {
  byTenant: Map<string, Item[]>;
  byWorkspace: Map<string, string>;
}

export class TenantWorkspaces {
  private tenants?: Promise<Tenants>;
  private readAt = 0;

  constructor(private readonly records: Records) {}

  invalidate(): void {
    this.tenants = undefined;
  }

  /** The workspaces that use this tenant of the embedded broker. */
  async of(tenant: string): Promise<Item[]> {
    return (await this.current()).byTenant.get(tenant) ?? [];
  }

  /** The tenant a workspace uses on the embedded broker, or undefined when it is on another broker. */
  async tenantOf(workspaceId: string): Promise<string | undefined> {
    return (await this.current()).byWorkspace.get(workspaceId);
  }

  private current(): Promise<Tenants> {
    if (!this.tenants || Date.now() - this.readAt > TTL_MS) {
      this.readAt = Date.now();
      const reading = this.read();
      this.tenants = reading;
      // A failed read is not kept: the next request reads again.
      reading.catch(() => {
        if (this.tenants === reading) this.invalidate();
      });
    }
    return this.tenants;
  }

  private async read(): Promise<Tenants> {
    const [brokers, serviceList, workspaceList] = await Promise.all([
      this.records.list(contextBrokers),
      this.records.list(services),
      this.records.list(workspaces),
    ]);
    const own = new Map(
      brokers.filter((b) => isOwnBroker(address(b))).map((b) => [b.id, b.multiTenancyEnabled === true]),
    );
    const multiTenantOf = new Map<string, boolean>();
    for (const s of serviceList)
      if (own.has(String(s.hasContextBroker))) multiTenantOf.set(s.id, own.get(String(s.hasContextBroker))!);
    const byTenant = new Map<string, Item[]>();
    const byWorkspace = new Map<string, string>();
    for (const w of workspaceList) {
      const multiTenant = multiTenantOf.get(String(w.hasService));
      if (multiTenant === undefined) continue;
      const tenant = multiTenant ? String(w.contextBrokerTenant ?? "") : "";
      byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), w]);
      byWorkspace.set(w.id, tenant);
    }
    return { byTenant, byWorkspace };
  }
}
