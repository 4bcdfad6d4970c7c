import { lazy, Suspense } from "react";
import { Spinner, Tab, Tabs } from "react-bootstrap";
import { useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useDataModel } from "./entityQueries.ts";
import { EntitiesTab } from "./EntitiesTab.tsx";
import { SubscriptionsTab } from "./SubscriptionsTab.tsx";

// Leaflet and its cluster plugin: loaded when the map tab opens.
const MapTab = lazy(() => import("./MapTab.tsx"));

const tabs = ["entities", "subscriptions", "map"] as const;

/**
 * The right column of the workspace view: Entities, Subscriptions and Map tabs chosen by the query's
 * activeTab (entities by default), on the type of the query's typeId and the entity of its entityId.
 */
export function ContextDataTabs({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const requested = search.get("activeTab");
  const active = tabs.find((tab) => tab === requested) ?? "entities";
  // The properties only for the map: the list and the subscriptions need the types alone.
  const model = useDataModel(active === "map");
  const typeId = search.get("typeId");
  const type = model.types.find((x) => x.id === typeId);
  const select = (tab: string | null) => {
    const next = new URLSearchParams(search);
    next.set("activeTab", tab ?? "entities");
    if (tab !== "entities") next.delete("entityId");
    setSearch(next);
  };
  const spinner = <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  if (model.error) return <ErrorAlert error={model.error} />;
  return (
    <Tabs
      activeKey={active}
      onSelect={select}
      mountOnEnter
      unmountOnExit
      className="mb-3"
      id="context-data-tabs"
    >
      <Tab eventKey="entities" title={t("entities.tab")}>
        {model.isPending ? (
          spinner
        ) : (
          <EntitiesTab
            workspaceId={workspaceId}
            type={type}
            entityId={search.get("entityId")}
            onTab={select}
          />
        )}
      </Tab>
      <Tab eventKey="subscriptions" title={t("subscriptions.tab")}>
        {model.isPending ? spinner : <SubscriptionsTab workspaceId={workspaceId} type={type} />}
      </Tab>
      <Tab eventKey="map" title={t("map.tab")}>
        {model.isPending ? (
          spinner
        ) : (
          <Suspense fallback={spinner}>
            <MapTab workspaceId={workspaceId} type={type} properties={model.properties} />
          </Suspense>
        )}
      </Tab>
    </Tabs>
  );
}
