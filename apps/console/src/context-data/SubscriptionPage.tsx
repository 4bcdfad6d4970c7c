import type { ReactNode } from "react";
import { Button, Card, Spinner, Table } from "react-bootstrap";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaces } from "@orrery/model";
import { call, get } from "../api.ts";
import { useConfirmedDelete } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { JsonValue } from "./AttributeValue.tsx";
import { entityKeys, paths } from "./entityQueries.ts";
import { entityHref } from "./links.ts";
import type { Subscription } from "./subscriptionModel.ts";
import "texts:context-data";

/** The subscription page (subscriptions.show, query typeId): every field, the notification status, delete. */
export function SubscriptionPage() {
  const { t } = useTranslation();
  const { workspaceId = "", subscriptionId = "" } = useParams();
  const [query] = useSearchParams();
  const typeId = query.get("typeId") ?? undefined;
  const navigate = useNavigate();
  const client = useQueryClient();
  const can = useCan();
  const workspace = useItem(workspaces, workspaceId);
  const path = paths.subscription(workspaceId, subscriptionId);
  const subscription = useQuery({
    queryKey: [...entityKeys.subscriptions(workspaceId), "item", subscriptionId],
    queryFn: () => get<Subscription>(path),
  });
  const remove = useMutation({
    mutationFn: () => call(path, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: entityKeys.subscriptions(workspaceId) }),
  });
  const back = entityHref(workspaceId, typeId, undefined, "subscriptions");
  const data = subscription.data;
  const row = (label: string, value: ReactNode) =>
    value === undefined || value === null || value === "" ? null : (
      <tr>
        <th scope="row" className="fw-semibold" style={{ width: "35%" }}>
          {label}
        </th>
        <td className="text-break">{value}</td>
      </tr>
    );
  const deletion = useConfirmedDelete(({ onError }) =>
    remove.mutate(undefined, { onSuccess: () => navigate(back), onError }),
  );
  const notification = data?.notification;
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: t("kinds.workspaces.many"), to: routeTo("workspaces.index") },
          { label: String(workspace.data?.data.name ?? workspaceId), to: back },
          { label: data?.subscriptionName ?? subscriptionId },
        ]}
      />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      {remove.isError && <ErrorAlert error={remove.error} />}
      {subscription.isError ? (
        <ErrorAlert error={subscription.error} />
      ) : !data ? (
        <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
      ) : (
        <>
          <Card>
            <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
              <h1 className="h5 mb-0 text-break">{data.subscriptionName ?? data.id}</h1>
              {can.can("DELETE", path) && (
                <Button variant="outline-danger" size="sm" onClick={deletion.ask}>
                  {t("common.delete")}
                </Button>
              )}
            </Card.Header>
            <Card.Body>
              <Table size="sm" className="mb-0">
                <tbody>
                  {row(t("entities.id"), <span className="font-monospace">{data.id}</span>)}
                  {row(t("subscriptions.subscriptionName"), data.subscriptionName)}
                  {row(t("subscriptions.description"), data.description)}
                  {row(
                    t("subscriptions.entities"),
                    data.entities?.length ? (
                      <ul className="list-unstyled mb-0 small font-monospace">
                        {data.entities.map((e, i) => (
                          <li key={i}>{[e.id, e.idPattern, e.type].filter(Boolean).join(" · ")}</li>
                        ))}
                      </ul>
                    ) : undefined,
                  )}
                  {row(t("subscriptions.watchedAttributes"), data.watchedAttributes?.join(", "))}
                  {row(t("subscriptions.timeInterval"), data.timeInterval)}
                  {row(t("subscriptions.q"), data.q && <code>{data.q}</code>)}
                  {row(t("subscriptions.geoQ"), data.geoQ && <JsonValue value={data.geoQ} />)}
                  {row(
                    t("subscriptions.isActive"),
                    t(data.isActive === false ? "common.false" : "common.true"),
                  )}
                  {row(t("subscriptions.attributes"), notification?.attributes?.join(", "))}
                  {row(t("subscriptions.format"), notification?.format)}
                  {row(t("subscriptions.uri"), notification?.endpoint.uri)}
                  {row(t("subscriptions.accept"), notification?.endpoint.accept)}
                  {row(t("subscriptions.expiresAt"), data.expiresAt)}
                  {row(t("subscriptions.throttling"), data.throttling)}
                  {row(t("subscriptions.lang"), data.lang)}
                </tbody>
              </Table>
            </Card.Body>
          </Card>
          <Card className="mt-3">
            <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
              <h2 className="h6 mb-0">{t("subscriptions.status")}</h2>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={subscription.isFetching}
                onClick={() => void subscription.refetch()}
              >
                {t("subscriptions.refresh")}
              </Button>
            </Card.Header>
            <Card.Body>
              <Table size="sm" className="mb-0" aria-label={t("subscriptions.status")}>
                <tbody>
                  <tr>
                    <th scope="row" style={{ width: "35%" }}>
                      {t("subscriptions.statusValue")}
                    </th>
                    <td>{notification?.status ?? data.status ?? ""}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t("subscriptions.timesSent")}</th>
                    <td data-testid="times-sent">{notification?.timesSent ?? 0}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t("subscriptions.lastNotification")}</th>
                    <td>{notification?.lastNotification ?? ""}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t("subscriptions.lastSuccess")}</th>
                    <td>{notification?.lastSuccess ?? ""}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t("subscriptions.lastFailure")}</th>
                    <td>{notification?.lastFailure ?? ""}</td>
                  </tr>
                </tbody>
              </Table>
            </Card.Body>
          </Card>
        </>
      )}
      {deletion.dialogs({
        confirm: t("subscriptions.confirmDelete"),
        failed: t("subscriptions.deletionFailed"),
      })}
    </>
  );
}

export default SubscriptionPage;
