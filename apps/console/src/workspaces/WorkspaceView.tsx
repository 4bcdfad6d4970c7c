import { useDeferredValue, useEffect, useState } from "react";
import { Alert, Button, Card, Col, Form, Modal, Row, Spinner } from "react-bootstrap";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { listPlace } from "../startup.ts";
import { useTranslation } from "../i18n/index.ts";
import {
  contracts,
  woTThingDescriptions,
  dataModelGroups,
  dataServices,
  properties,
  roles,
  types,
  workspaces,
  type KindDefinition,
} from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { chartProperties, useItem, useList } from "../resources/queries.ts";
import { kindRoute, routeTo } from "../routes.ts";
import { groupColours } from "./groupColours.ts";
import { layOutEarly } from "./chartLayoutWorker.ts";
import { queryClient } from "../queryClient.ts";
import { DataModelList } from "./DataModelList.tsx";
import { AutoDiscover } from "./AutoDiscover.tsx";
import { GenerateDataModel } from "./GenerateDataModel.tsx";
import { ContextDataTabs } from "../context-data/ContextDataTabs.tsx";
import { PoliciesLink } from "../fdsc/FdscLinks.tsx";
import "texts:workspaces";
import "texts:context-data";

type Chart = typeof import("./DataModelChart.tsx").default;
let chart: Chart | undefined;
// The chart's code (@xyflow/react) loads beside the view's, and the list shows without waiting for
// it. Not React.lazy: a chart that suspended would show only 300 ms after its spinner (Suspense's
// reveal throttle); this one renders as soon as its code is there.
const chartCode = import("./DataModelChart.tsx").then((m) => (chart = m.default));
chartCode.catch(() => undefined); // useChart shows it
// A large chart's layout begins in a worker as soon as its data is there, while this view renders.
layOutEarly(queryClient, window.location.pathname);

/** The chart component once its code has arrived, or the failure to load it. */
function useChart(): { Chart?: Chart; error?: unknown } {
  const [state, setState] = useState<{ Chart?: Chart; error?: unknown }>({ Chart: chart });
  useEffect(() => {
    if (!state.Chart)
      chartCode.then(
        (c) => setState({ Chart: c }),
        (error) => setState({ error }),
      );
  }, [state.Chart]);
  return state.Chart || state.error ? state : { Chart: chart };
}

/** Which data-model groups the chart shows: one switch per group, not kept (as in the original). */
function GroupFilter(props: { hidden: ReadonlySet<string>; onChange: (hidden: Set<string>) => void }) {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  const toggle = (group: string, visible: boolean) => {
    const next = new Set(props.hidden);
    if (visible) next.delete(group);
    else next.add(group);
    props.onChange(next);
  };
  return (
    <>
      <Button variant="outline-secondary" size="sm" onClick={() => setShow(true)}>
        {t("workspace.groupFilter")}
      </Button>
      <Modal show={show} onHide={() => setShow(false)} centered aria-labelledby="group-filter-title">
        <Modal.Header closeButton closeLabel={t("common.close")}>
          <Modal.Title id="group-filter-title" className="h5">
            {t("workspace.groupFilter")}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {dataModelGroups.map((group) => (
            <Form.Check
              key={group}
              type="switch"
              id={`group-${group}`}
              label={
                <>
                  <span
                    className="group-swatch"
                    style={{ background: groupColours[group] }}
                    aria-hidden="true"
                  />{" "}
                  {t(`options.dataModelGroup.${group}`)}
                </>
              }
              checked={!props.hidden.has(group)}
              onChange={(e) => toggle(group, e.target.checked)}
            />
          ))}
        </Modal.Body>
        <Modal.Footer>
          <Button onClick={() => setShow(false)}>{t("common.close")}</Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

/**
 * The workspace view (route `workspace`, query typeId): the data-model chart in the left card with
 * links to the types and "Generate"; the outdated warning on the right while the published model
 * is behind the types and properties, otherwise the context-data tabs (entities, subscriptions, map).
 */
export function WorkspaceView() {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const can = useCan();
  const workspace = useItem(workspaces, workspaceId);
  const typeList = useList(types);
  const propertyList = useList(properties, true, undefined, chartProperties);
  const serviceList = useList(dataServices);
  const [hiddenGroups, setHiddenGroups] = useState<Set<string>>(new Set());
  const { Chart: DataModelChart, error: chartError } = useChart();
  // The chart draws in the render after the one that brings its data and code: the entities tab's
  // list, whose data come at the same time, shows first instead of after the chart's layout and
  // React Flow's first measures (bench/entities-console: a good part of the first page's code).
  const chartTurn = useDeferredValue(
    !!DataModelChart && !typeList.isPending && !propertyList.isPending && !serviceList.isPending,
  );
  // The chart's types read as a table instead (issue 37): for a keyboard, a screen reader, a phone.
  const [asList, setAsList] = useState(false);
  const data = workspace.data?.data;
  const params = { workspaceId };
  const select = (typeId: string) => {
    const next = new URLSearchParams(search);
    next.set("typeId", typeId);
    if (next.get("typeId") !== search.get("typeId"))
      for (const name of ["entityId", ...listPlace]) next.delete(name);
    setSearch(next);
  };
  const kindLink = (kind: KindDefinition) => (
    <Link
      key={kind.kind}
      to={kindRoute(kind, "index", undefined, params)}
      className="btn btn-outline-primary btn-sm"
    >
      {t(`kinds.${kind.kind}.many`)}
    </Link>
  );
  /** The data browser: the entities tab, of the chosen type or else the first one. */
  const browse = () => {
    const next = new URLSearchParams({ activeTab: "entities" });
    const typeId = search.get("typeId") ?? typeList.data?.[0]?.id;
    if (typeId) next.set("typeId", typeId);
    return next.toString();
  };
  if (workspace.isError) return <ErrorAlert error={workspace.error} />;
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: t("kinds.workspaces.many"), to: routeTo("workspaces.index") },
          { label: data?.name ?? workspaceId },
        ]}
      />
      <Row className="g-3">
        <Col lg={6}>
          <Card>
            <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
              <h1 className="h5 mb-0 text-break">{data?.name ?? t("kinds.workspaces.one")}</h1>
              <div className="d-flex flex-wrap gap-2">
                {/* The data browser, data services, roles and contracts need the published model: hidden while it is outdated. */}
                {[woTThingDescriptions, types].filter((kind) => can.index(kind)).map(kindLink)}
                {data?.dataModelUpToDate === true && (
                  <Link to={`?${browse()}`} className="btn btn-outline-primary btn-sm">
                    {t("workspace.dataBrowser")}
                  </Link>
                )}
                {(data?.dataModelUpToDate === true ? [dataServices, roles, contracts] : [])
                  .filter((kind) => can.index(kind))
                  .map(kindLink)}
                <PoliciesLink workspaceId={workspaceId} serviceId={data?.hasService} />
                <AutoDiscover workspaceId={workspaceId} />
                <GenerateDataModel workspaceId={workspaceId} />
                <GroupFilter hidden={hiddenGroups} onChange={setHiddenGroups} />
                <Button
                  variant="outline-secondary"
                  size="sm"
                  aria-pressed={asList}
                  onClick={() => setAsList(!asList)}
                >
                  {t("workspace.asList")}
                </Button>
              </div>
            </Card.Header>
            <Card.Body>
              {typeList.isError || (chartError && !asList) ? (
                <ErrorAlert error={typeList.error ?? chartError} />
              ) : typeList.isPending ||
                propertyList.isPending ||
                serviceList.isPending ||
                (!chartTurn && !asList) ? (
                <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
              ) : typeList.data.length === 0 ? (
                <Alert variant="info" className="mb-0">
                  {t("kinds.types.none")}
                </Alert>
              ) : asList || !DataModelChart ? (
                <DataModelList
                  types={typeList.data}
                  properties={propertyList.data ?? []}
                  hiddenGroups={hiddenGroups}
                  selectedTypeId={search.get("typeId")}
                  typePath={(typeId) => kindRoute(types, "show", typeId, params)}
                  onSelect={select}
                />
              ) : (
                <DataModelChart
                  workspaceId={workspaceId}
                  types={typeList.data}
                  properties={propertyList.data ?? []}
                  dataServices={serviceList.data}
                  selectedTypeId={search.get("typeId")}
                  hiddenGroups={hiddenGroups}
                  canMove={(typeId) =>
                    can.can("PUT", `/workspace/${workspaceId}/types/${typeId}/position-in-chart`)
                  }
                  onSelect={select}
                  onOpen={(typeId) => navigate(kindRoute(types, "show", typeId, params))}
                />
              )}
            </Card.Body>
          </Card>
        </Col>
        <Col lg={6}>
          {data?.dataModelUpToDate === false ? (
            <Alert variant="warning" data-testid="data-model-outdated">
              {t("dataModel.outdated")}
            </Alert>
          ) : (
            data && <ContextDataTabs workspaceId={workspaceId} />
          )}
        </Col>
      </Row>
    </>
  );
}
