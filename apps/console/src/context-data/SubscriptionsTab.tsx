import { Alert, Badge, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useQuery } from "@tanstack/react-query";
import { isLiveSubscription } from "@orrery/model";
import { get } from "../api.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { routeTo } from "../routes.ts";
import type { TypeRecord } from "./entityModel.ts";
import { entityKeys, paths } from "./entityQueries.ts";
import { PlusIcon } from "./icons.tsx";
import { withQuery } from "./links.ts";
import type { Subscription } from "./subscriptionModel.ts";

export function useSubscriptions(workspaceId: string, typeName: string | undefined) {
  return useQuery({
    queryKey: [...entityKeys.subscriptions(workspaceId), "list", typeName],
    queryFn: () =>
      get<Subscription[]>(
        `${paths.subscriptions(workspaceId)}?${new URLSearchParams({ type: typeName ?? "" })}`,
      ),
    enabled: !!typeName,
  });
}

/**
 * The subscriptions tab: the selected type's subscriptions (name, id) and an add button. The
 * API's own live-channel subscriptions (made while a console watches the type's entities live)
 * exist in the broker, so they are listed, after the others, as what they are: named "Console
 * live updates", not links to an edit page, with a sentence saying they go when nobody watches.
 */
export function SubscriptionsTab({
  workspaceId,
  type,
}: {
  workspaceId: string;
  type: TypeRecord | undefined;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useSubscriptions(workspaceId, type?.name);
  if (!type) return <Alert variant="info">{t("entities.noTypeSelected")}</Alert>;
  const sorted = [...(list.data ?? [])].sort(
    (a, b) =>
      Number(isLiveSubscription(a)) - Number(isLiveSubscription(b)) ||
      (a.subscriptionName ?? a.id).localeCompare(b.subscriptionName ?? b.id),
  );
  const live = sorted.some(isLiveSubscription);
  return (
    <Card>
      <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <h2 className="h5 mb-0 text-break">{t("subscriptions.titleOf", { type: type.name })}</h2>
        {can.can("POST", paths.subscriptions(workspaceId)) && (
          <Link
            to={withQuery(routeTo("subscriptions.create", { workspaceId }), { typeId: type.id })}
            className="btn btn-primary btn-sm"
          >
            <PlusIcon /> {t("subscriptions.add")}
          </Link>
        )}
      </Card.Header>
      <Card.Body>
        {list.isError ? (
          <ErrorAlert error={list.error} />
        ) : list.isPending ? (
          <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
        ) : sorted.length === 0 ? (
          <Alert variant="info" className="mb-0">
            {t("subscriptions.none")}
          </Alert>
        ) : (
          <Table size="sm" responsive className="mb-0 small" aria-label={t("subscriptions.tab")}>
            <thead>
              <tr>
                <th scope="col">{t("entities.name")}</th>
                <th scope="col">{t("entities.id")}</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((subscription) =>
                isLiveSubscription(subscription) ? (
                  <tr key={subscription.id} data-testid="live-subscription">
                    <td>
                      <Badge bg="secondary">{t("subscriptions.live")}</Badge>
                    </td>
                    <td className="text-break font-monospace">{subscription.id}</td>
                  </tr>
                ) : (
                  <tr key={subscription.id}>
                    <td className="text-break">{subscription.subscriptionName ?? ""}</td>
                    <td className="text-break font-monospace">
                      <Link
                        to={withQuery(
                          routeTo("subscriptions.show", { workspaceId, subscriptionId: subscription.id }),
                          { typeId: type.id },
                        )}
                      >
                        {subscription.id}
                      </Link>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </Table>
        )}
        {live && (
          <p className="small text-body-secondary mt-2 mb-0" data-testid="live-subscriptions-note">
            {t("subscriptions.liveNote")}
          </p>
        )}
      </Card.Body>
    </Card>
  );
}
