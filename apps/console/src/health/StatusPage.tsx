import { Button, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { kindsByName } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { usePageTitle } from "../resources/Breadcrumbs.tsx";
import { kindRoute } from "../routes.ts";
import { refreshMs, useCheckAll, useHealthList } from "./healthApi.ts";
import { CheckedAt, Reasons, StateBadge } from "./HealthResult.tsx";
import "texts:health";

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/**
 * The platform's Status page: every registered component (brokers, temporal services, identity
 * managers and their grants, registries and their grants, verifiers, issuers lists) with its last
 * connection check and when it was taken, read again by itself; "Check all now" for who may check.
 */
export default function StatusPage() {
  const { t } = useTranslation();
  usePageTitle([t("health.title")]);
  const can = useCan();
  const list = useHealthList();
  const checkAll = useCheckAll();
  const interval = list.data?.intervalSeconds ?? 0;
  const components = list.data?.components ?? [];
  const down = components.filter((c) => c.state === "down").length;

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
          </>
        )}
      </Card.Body>
    </Card>
  );
}
