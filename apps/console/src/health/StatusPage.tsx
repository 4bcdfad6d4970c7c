import { useMemo, useState } from "react";
import { Button, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { kindsByName } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { usePageTitle } from "../resources/Breadcrumbs.tsx";
import { PAGE, ShowMore } from "../resources/RecordTable.tsx";
import { kindRoute } from "../routes.ts";
import {
  refreshMs,
  useCheckAll,
  useHealthList,
  type ComponentHealth,
  type HealthState,
} from "./healthApi.ts";
import { CheckedAt, Reasons, StateBadge } from "./HealthResult.tsx";
import "texts:health";

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** The order of the rows: what needs the operator's eyes first. */
const states: readonly HealthState[] = ["down", "unchecked", "up", "notApplicable"];
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Down first, then not checked yet, up, not applicable; by name within a state. */
const byUrgency = (a: ComponentHealth, b: ComponentHealth) =>
  states.indexOf(a.state) - states.indexOf(b.state) || collator.compare(a.name, b.name);

/** How many components of each kind are in each state, kinds in the API's order. */
function countByKind(components: readonly ComponentHealth[]) {
  const counts = new Map<string, Record<HealthState, number>>();
  for (const c of components) {
    const row = counts.get(c.kind) ?? { down: 0, unchecked: 0, up: 0, notApplicable: 0 };
    row[c.state]++;
    counts.set(c.kind, row);
  }
  return [...counts.entries()];
}

/**
 * The platform's Status page: every registered component (brokers, temporal services, identity
 * managers and their grants, registries and their grants, verifiers, issuers lists) with its last
 * connection check and when it was taken, read again by itself; "Check all now" for who may check.
 * A platform of 10,000 components stays quick to read (issue 38): a count per kind and state
 * first, then the components down first, a page at a time.
 */
export default function StatusPage() {
  const { t } = useTranslation();
  usePageTitle([t("health.title")]);
  const can = useCan();
  const list = useHealthList();
  const checkAll = useCheckAll();
  const [limit, setLimit] = useState(PAGE);
  const stateLabels: Record<HealthState, string> = {
    down: t("health.states.down"),
    unchecked: t("health.states.unchecked"),
    up: t("health.states.up"),
    notApplicable: t("health.states.notApplicable"),
  };
  const interval = list.data?.intervalSeconds ?? 0;
  const components = useMemo(() => [...(list.data?.components ?? [])].sort(byUrgency), [list.data]);
  const perKind = useMemo(() => countByKind(list.data?.components ?? []), [list.data]);
  const down = perKind.reduce((sum, [, row]) => sum + row.down, 0);

  return (
    <Card>
      <Card.Header className="d-flex align-items-center justify-content-between gap-2 flex-wrap">
        <h1 className="h5 mb-0">{t("health.title")}</h1>
        {can.can("POST", "/health/components") && (
          <Button size="sm" disabled={checkAll.isPending} onClick={() => checkAll.mutate()}>
            {checkAll.isPending && <Spinner animation="border" size="sm" className="me-1" aria-hidden />}
            {checkAll.isPending ? t("health.checking") : t("health.checkAll")}
          </Button>
        )}
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary small">
          {t("health.intro")}{" "}
          {interval > 0
            ? t("health.background", { interval, refresh: refreshMs(interval) / 1000 })
            : t("health.onDemand", { refresh: refreshMs(interval) / 1000 })}
        </p>
        <ErrorAlert error={list.error ?? checkAll.error} />
        {list.isPending && (
          <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
        )}
        {list.isSuccess && components.length === 0 && <p>{t("health.none")}</p>}
        {components.length > 0 && (
          <>
            <p role="status" className="mb-2">
              {down > 0 ? t("health.someDown", { count: down }) : t("health.noneDown")}
            </p>
            <Table size="sm" className="w-auto mb-3" aria-label={t("health.byKind")}>
              <thead>
                <tr>
                  <th scope="col">{t("health.columns.kind")}</th>
                  {states.map((state) => (
                    <th scope="col" key={state} className="text-end">
                      {stateLabels[state]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {perKind.map(([kind, row]) => (
                  <tr key={kind} data-kind={kind}>
                    <th scope="row" className="fw-normal">
                      {capitalized(t(`kinds.${kind}.many`))}
                    </th>
                    {states.map((state) => (
                      <td key={state} className="text-end" data-state={state}>
                        {row[state]}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
            <Table responsive hover size="sm" className="align-middle">
              <thead>
                <tr>
                  <th scope="col">{t("health.columns.component")}</th>
                  <th scope="col">{t("health.columns.kind")}</th>
                  <th scope="col">{t("health.columns.state")}</th>
                  <th scope="col">{t("health.columns.roundTrip")}</th>
                  <th scope="col">{t("health.columns.version")}</th>
                  <th scope="col">{t("health.columns.checkedAt")}</th>
                </tr>
              </thead>
              <tbody>
                {components.slice(0, limit).map((c) => {
                  const kind = kindsByName.get(c.kind);
                  return (
                    <tr key={c.id} data-component={c.id}>
                      <td className="text-break">
                        {kind ? <Link to={kindRoute(kind, "show", c.id)}>{c.name}</Link> : c.name}
                      </td>
                      <td>{capitalized(t(`kinds.${c.kind}.one`))}</td>
                      <td>
                        <StateBadge state={c.state} /> <Reasons health={c} />
                      </td>
                      <td className="text-nowrap">
                        {c.roundTripMs === null ? "" : t("health.milliseconds", { ms: c.roundTripMs })}
                      </td>
                      <td>{c.version ?? ""}</td>
                      <td className="text-nowrap">
                        <CheckedAt at={c.checkedAt} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
            <ShowMore limit={limit} total={components.length} onMore={() => setLimit(limit + PAGE)} />
          </>
        )}
      </Card.Body>
    </Card>
  );
}
