import { useMemo } from "react";
import { Button, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { kindsByName } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { usePageTitle } from "../resources/Breadcrumbs.tsx";
import { ShowMore } from "../resources/RecordTable.tsx";
import { kindRoute } from "../routes.ts";
import {
  refreshMs,
  useCheckAll,
  useHealthPages,
  useHealthSummary,
  type ComponentHealth,
  type HealthState,
} from "./healthApi.ts";
import { CheckedAt, Reasons, StateBadge } from "./HealthResult.tsx";
import "texts:health";

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** The columns of the count per kind: what needs the operator's eyes first. */
const states: readonly HealthState[] = ["down", "unchecked", "up", "notApplicable"];

/**
 * The platform's Status page: every registered component (brokers, temporal services, identity
 * managers and their grants, registries and their grants, verifiers, issuers lists) with its last
 * connection check and when it was taken, read again by itself; "Check all now" for who may check.
 * A platform of 10,000 components stays quick to read (issue 38): the API counts them per kind and
 * state, shown at once, and sends the components a page at a time, down first, then not checked
 * yet, up, not applicable (by name within a state).
 */
export default function StatusPage() {
  const { t } = useTranslation();
  usePageTitle([t("health.title")]);
  const can = useCan();
  const summary = useHealthSummary();
  const pages = useHealthPages();
  const checkAll = useCheckAll();
  const stateLabels: Record<HealthState, string> = {
    down: t("health.states.down"),
    unchecked: t("health.states.unchecked"),
    up: t("health.states.up"),
    notApplicable: t("health.states.notApplicable"),
  };
  const interval = summary.data?.intervalSeconds ?? pages.data?.pages[0]?.intervalSeconds ?? 0;
  // A component whose state changed between two pages' reads may come twice: once is enough.
  const components = useMemo(() => {
    const seen = new Set<string>();
    const rows: ComponentHealth[] = [];
    for (const c of pages.data?.pages.flatMap((p) => p.components) ?? []) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      rows.push(c);
    }
    return rows;
  }, [pages.data]);
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  const perKind = summary.data?.kinds ?? [];
  const down = summary.data?.down ?? 0;

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
        <ErrorAlert error={summary.error ?? pages.error ?? checkAll.error} />
        {(summary.isPending || pages.isPending) && (
          <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
        )}
        {summary.isSuccess && summary.data.total === 0 && <p>{t("health.none")}</p>}
        {summary.isSuccess && summary.data.total > 0 && (
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
                {perKind.map((row) => (
                  <tr key={row.kind} data-kind={row.kind}>
                    <th scope="row" className="fw-normal">
                      {capitalized(t(`kinds.${row.kind}.many`))}
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
          </>
        )}
        {components.length > 0 && (
          <>
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
                {components.map((c) => {
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
            <ShowMore
              limit={components.length}
              total={Math.max(total, components.length)}
              onMore={() => void pages.fetchNextPage()}
            />
          </>
        )}
      </Card.Body>
    </Card>
  );
}
