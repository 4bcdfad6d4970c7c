import { contextBrokers, multiValuedBrokers, properties, services, types, workspaces } from "@orrery/model";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Item, Records } from "../resources/records.ts";
import { scopeTypeDependents } from "../contracts/rules.ts";
import type { Config } from "../config.ts";
import { refuseRenameUnderThings } from "../wot/attribute-rename.ts";
import { propertyDependents } from "../wot/dependents.ts";
import { sanitizeIcon } from "./icons.ts";

type Data = Record<string, unknown>;

/**
 * The workspace rules that need other records: the server-set data-model version, the tenant only
 * on a multi-tenant broker, URLs of types and properties (default, default_url_error, one URL per
 * name), parents of sub-properties, multi-valued attributes only where the broker has them, and
 * "the data model is outdated" after any change of a type or property.
 */
export function workspaceHooks(records: Records, config?: Config): Record<string, KindHooks> {
  async function brokerOf(serviceId: unknown): Promise<Item | undefined> {
    const service = typeof serviceId === "string" ? await records.find(services, serviceId) : undefined;
    const brokerId = service?.data.hasContextBroker;
    const broker = typeof brokerId === "string" ? await records.find(contextBrokers, brokerId) : undefined;
    return broker ? { id: broker.id, ...broker.data } : undefined;
  }

  async function checkUrl(input: Data, workspaceId: string, id: string | undefined): Promise<void> {
    const workspace = (await records.requireWorkspace(workspaceId)).data;
    const base = workspace.defaultDataModelUrl as string | undefined;
    if (input.url === undefined && base) input.url = `${base}${input.name}`;
    if (base && input.url === base) {
      throw invalid([fieldError("url", "field.defaultUrl")]);
    }
    // One term, one IRI: the generated @context maps each name to a single URL.
    const clash = (await records.findByName([types, properties], workspaceId, String(input.name))).find(
      (r) => r.id !== id && r.url !== input.url,
    );
    if (clash) {
      throw invalid([
        fieldError("url", "field.urlOfName", { name: String(input.name), url: String(clash.url ?? "-") }),
      ]);
    }
  }

  const markOutdated = async ({ workspaceId }: { workspaceId?: string }) => {
    if (workspaceId) await records.patchData(workspaces, workspaceId, { dataModelUpToDate: false });
  };

  return {
    workspaces: {
      async prepare(input, { id }) {
        if (!id) Object.assign(input, { dataModelVersion: 0, dataModelUpToDate: false });
        // A data model name used by another workspace: the database refuses it (409, unique-names.ts).
        if (
          input.contextBrokerTenant !== undefined &&
          (await brokerOf(input.hasService))?.multiTenancyEnabled !== true
        ) {
          delete input.contextBrokerTenant; // only meaningful on a multi-tenant broker
        }
        return input;
      },
    },
    types: {
      async prepare(input, { workspaceId, id }) {
        if (typeof input.icon === "string") {
          const icon = sanitizeIcon(input.icon);
          if (icon) input.icon = icon;
          else delete input.icon;
        }
        await checkUrl(input, workspaceId!, id);
        return input;
      },
      changed: markOutdated,
      dependents: scopeTypeDependents,
    },
    properties: {
      async prepare(input, { workspaceId, id, request }) {
        await checkUrl(input, workspaceId!, id);
        // The attribute WoT properties read keeps its name (the entities carry it).
        if (config) await refuseRenameUnderThings(records, config, input, { workspaceId, id, request });
        if (typeof input.hasProperty === "string") {
          const chain = new Set<string>([id ?? ""]);
          let parentId: unknown = input.hasProperty;
          while (typeof parentId === "string") {
            if (chain.has(parentId)) throw invalid([fieldError("hasProperty", "field.selfParent")]);
            chain.add(parentId);
            const parent = await records.find(properties, parentId, workspaceId);
            if (!parent) break; // the reference check answers for a missing parent
            if (parent.data.hasType !== input.hasType)
              throw invalid([fieldError("hasProperty", "field.sameType")]);
            parentId = parent.data.hasProperty;
          }
        }
        // A property's temporal services are among its workspace's (the temporal view asks them).
        const offered = (await records.requireWorkspace(workspaceId!)).data.temporalServices as
          string[] | undefined;
        const foreign = ((input.temporalServices as string[] | undefined) ?? []).findIndex(
          (t) => !(offered ?? []).includes(t),
        );
        if (foreign >= 0)
          throw invalid([
            fieldError(`temporalServices.${foreign}`, "field.notOfWorkspace", { kind: "temporal-services" }),
          ]);
        if (input.multiValued === true) {
          const workspace = (await records.requireWorkspace(workspaceId!)).data;
          const broker = await brokerOf(workspace.hasService);
          if (!multiValuedBrokers.includes(String(broker?.implementationName))) {
            throw invalid([fieldError("multiValued", "field.multiValued")]);
          }
        }
        return input;
      },
      changed: markOutdated,
      // WoT properties name top-level properties of their thing description's type.
      dependents: propertyDependents,
    },
  };
}
