import type { ReactNode } from "react";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import {
  brokerClients,
  contextBrokers,
  contractDetails,
  contracts,
  properties,
  roles,
  services,
  trustedIssuersLists,
  types,
  woTThingDescriptions,
  workspaces,
  type KindDefinition,
} from "@orrery/model";
import { RegistrationsPanel } from "../brokers/RegistrationsPanel.tsx";
import { UsersPanel } from "../contracts/UsersPanel.tsx";
import type { Item } from "../resources/queries.ts";
import { ShowPage } from "../resources/ShowPage.tsx";
import { SynchronizeContract, SynchronizeContractDetail, SynchronizeRole } from "../trust/Synchronize.tsx";
import { ImportPropertiesLink } from "../workspaces/ImportPropertiesLink.tsx";
import { TypeContextLink } from "../workspaces/TypeContextLink.tsx";
import { PublicThingDescriptionLink } from "../wot/PublicThingDescriptionLink.tsx";
import { TryThingDescription } from "../wot/TryThingDescription.tsx";
import { CheckConnection } from "../health/CheckConnection.tsx";
import { ConsumersPanel } from "../data-access/ConsumersPanel.tsx";
import { DataAccessPanel } from "../data-access/DataAccessPanel.tsx";
import { checkedKinds } from "../health/healthApi.ts";
import { CredentialConfigurationLink, IssuersLink } from "../fdsc/FdscLinks.tsx";
import { BrokerClientActions } from "../broker-clients/BrokerClientActions.tsx";

/**
 * A kind's show page (its code loads with the route, screens.tsx), with what is its own: a type's
 * context file link and its properties' Import button, synchronisations, a contract detail's users.
 */
export default function KindShowPage({ kind }: { kind: KindDefinition }) {
  return (
    <ShowPage
      kind={kind}
      extra={extras[kind.kind]}
      childActions={kind === types ? { [properties.kind]: <ImportPropertiesLink /> } : undefined}
      deleteLocked={lockedDeletes.has(kind.kind) ? <DeleteLocked kind={kind} /> : undefined}
      deleteNote={kind === contractDetails ? contractDetailLeftovers : undefined}
    />
  );
}

/** What a kind's show page has of its own: a type's context file link, a contract detail's users, a thing description's public URL. */
const extras: Record<string, (item: Item) => ReactNode> = {
  [types.kind]: (type) => <TypeContextLink type={type} />,
  [contractDetails.kind]: (detail) => (
    <>
      <SynchronizeContractDetail detail={detail} />
      <UsersPanel detail={detail} />
    </>
  ),
  [woTThingDescriptions.kind]: (td) => (
    <>
      <PublicThingDescriptionLink td={td} />
      <TryThingDescription td={td} />
    </>
  ),
  [roles.kind]: (role) => <SynchronizeRole role={role} />,
  // Who read or wrote its data on the embedded broker, and how its consumers get in (issue 35).
  [workspaces.kind]: (workspace) => (
    <>
      <DataAccessPanel workspace={workspace} />
      <ConsumersPanel workspace={workspace} />
    </>
  ),
  [contracts.kind]: (contract) => <SynchronizeContract contract={contract} />,
  // FDSC mode (issue 29): the service's credential configuration in its CCS.
  [services.kind]: (service) => <CredentialConfigurationLink service={service} />,
  // A platform component's "Check connection" (issue 28).
  ...Object.fromEntries(
    checkedKinds.map((kind) => [kind, (item: Item) => <CheckConnection kind={kind} id={item.id} />]),
  ),
  // FDSC (issue 29): a trusted issuers list's issuers, beside its connection check.
  [trustedIssuersLists.kind]: (list) => (
    <>
      <CheckConnection kind={trustedIssuersLists.kind} id={list.id} />
      <IssuersLink list={list} />
    </>
  ),
  // Its key, shown once after its create and after New key; Revoke (issue 35).
  [brokerClients.kind]: (client) => <BrokerClientActions client={client} />,
  // Its context source registrations, for any implementation (issue 27).
  [contextBrokers.kind]: (broker) => (
    <>
      <CheckConnection kind={contextBrokers.kind} id={broker.id} />
      <RegistrationsPanel broker={broker} />
    </>
  ),
};

/**
 * A contract detail's synchronisation made a role and its permissions in the identity manager: its
 * delete leaves them there (spec: nothing removes them), so the confirmation says so.
 */
function contractDetailLeftovers(detail: Item, t: TFunction): string | undefined {
  return detail.roleScopeName
    ? t("contractDetails.deleteLeavesRole", { name: String(detail.roleScopeName) })
    : undefined;
}

/**
 * Kinds whose delete button is shown but stays disabled (spec section 2): a role's policy may be in
 * an authorization registry, a contract's stakeholder in a trusted issuers list.
 */
const lockedDeletes = new Set(["roles", "contracts"]);

function DeleteLocked({ kind }: { kind: KindDefinition }) {
  const { t } = useTranslation();
  return <>{t(`${kind.routeName}.deleteLocked`)}</>;
}
