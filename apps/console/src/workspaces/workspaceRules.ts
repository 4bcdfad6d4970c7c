import {
  contextBrokers,
  multiValuedBrokers,
  properties,
  roleNameOf,
  roles,
  services,
  workspaces,
  type KindDefinition,
} from "@orrery/model";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { useItem } from "../resources/queries.ts";

/**
 * Rules of a workspace-scoped form that depend on other records: the workspace's default data-model
 * URL (a type or property URL must not be it alone), and the broker behind the workspace's service
 * (multi-valued properties need one that keeps several values per attribute). Returns the fields to
 * disable, with the reason shown under them, and the records a reference list may offer.
 */
export function useWorkspaceRules(kind: KindDefinition) {
  const { t } = useTranslation();
  const { workspaceId } = useParams();
  const scoped = kind.scope === "workspace";
  const workspace = useItem(workspaces, workspaceId, scoped).data?.data;
  const needsBroker = kind.kind === properties.kind;
  const serviceId = workspace?.hasService as string | undefined;
  const service = useItem(services, serviceId, needsBroker).data?.data;
  const brokerId = service?.hasContextBroker as string | undefined;
  const broker = useItem(contextBrokers, brokerId, needsBroker);
  const implementation = broker.data?.data.implementationName as string | undefined;
  const locks: Record<string, string> = {};
  if (needsBroker && !multiValuedBrokers.includes(implementation ?? ""))
    locks.multiValued = implementation
      ? t("properties.multiValuedUnsupported", {
          broker: broker.data?.data.name,
          implementation: t(`options.implementationName.${implementation}`),
        })
      : t("properties.multiValuedUnknown");
  // A property's temporal services are chosen among its workspace's.
  const offered: Record<string, string[]> = needsBroker
    ? { temporalServices: (workspace?.temporalServices as string[] | undefined) ?? [] }
    : {};
  // A role's roleName (its access subject in the registry) is proposed from its name until changed.
  const defaults =
    kind.kind === roles.kind
      ? (values: Record<string, unknown>) => ({
          roleName:
            typeof values.name === "string" && values.name.trim() ? roleNameOf(values.name) : undefined,
        })
      : undefined;
  return {
    locks,
    offered,
    defaults,
    defaultDataModelUrl: workspace?.defaultDataModelUrl as string | undefined,
  };
}

/**
 * Fields a rule across records hides, from the form's current values: a workspace's broker tenant
 * exists only when its service's broker is multi-tenant (spec section 3). While the broker is still
 * loading nothing is hidden, so that an edit never clears a stored tenant by accident.
 */
export function useHiddenFields(kind: KindDefinition, values: Record<string, unknown>): string[] {
  const isWorkspace = kind.kind === workspaces.kind;
  const serviceId = isWorkspace ? (values.hasService as string | undefined) : undefined;
  const service = useItem(services, serviceId, isWorkspace).data?.data;
  const brokerId = service?.hasContextBroker as string | undefined;
  const broker = useItem(contextBrokers, brokerId, isWorkspace);
  if (!isWorkspace) return [];
  const known = !serviceId || broker.data !== undefined;
  return known && broker.data?.data.multiTenancyEnabled !== true ? ["contextBrokerTenant"] : [];
}
