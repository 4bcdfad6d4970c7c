import { lazy, Suspense, useMemo, useState } from "react";
import { Alert, Badge, Button, Card, Col, Form, Row, Spinner, Table } from "react-bootstrap";
import { Link, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { temporalServices } from "@orrery/model";
import { get } from "../api.ts";
import { useConfirmedDelete } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useList } from "../resources/queries.ts";
import { InstanceValue } from "./AttributeValue.tsx";
import { instancesOf, objectsOf, type Instance } from "./entityModel.ts";
import { useEntityPage } from "./entityPage.tsx";
import { entityHref } from "./links.ts";
import {
  lastHour,
  numericSeries,
  sortedValues,
  timeOf,
  subPropertyNames,
  utcSeconds,
  type TemporalAnswer,
} from "./temporal.ts";
import { historyPath, historyWrites } from "./temporalWrites.ts";
import { LiveBadge, useLiveEntities } from "./live.tsx";
import { TemporalLegend } from "./TemporalLegend.tsx";
import "texts:context-data";

const TemporalChart = lazy(() => import("./TemporalChart.tsx"));
const TemporalInstanceDialog = lazy(() => import("./TemporalInstanceDialog.tsx"));
const TemporalImportDialog = lazy(() => import("./TemporalImportDialog.tsx"));

type HistoryValue = Instance & { instanceId?: string; unitCode?: string };

/**
 * The temporal view (temporalEntities.properties.show): a temporal service of the property, a
 * window in UTC (the last hour by default), the values newest first and a chart of the numbers.
 * With permission to write, a value can be added, corrected or deleted, and a history imported
 * from CSV (writes go to the workspace's broker, whichever temporal service shows them).
 */
export function TemporalView() {
  const { t, i18n } = useTranslation();
  const { propertyId = "" } = useParams();
  const { workspaceId, entityId, typeId, model, property, trail, type } = useEntityPage();
  // Values written by devices and other clients come into the table and the chart by themselves.
  const live = useLiveEntities(type && { workspaceId, type: type.name, entityId });
  const can = useCan();
  const services = useList(temporalServices, can.index(temporalServices));
  const serviceIds = property?.temporalServices ?? [];
  const [service, setService] = useState("");
  const [range, setRange] = useState(lastHour);
  // The window the table shows: the default one until Apply (typing in the inputs does not refetch).
  // The default one follows the clock: each read (live changes read again) is of the hour up to
  // then, so a value written after the page opened is in it.
  const [applied, setApplied] = useState<{
    service?: string;
    from: number;
    to: number;
    following?: boolean;
  }>(() => ({ from: utcSeconds(range.from), to: utcSeconds(range.to), following: true }));
  const chosenService = service || serviceIds[0] || "";
  const appliedService = applied.service ?? serviceIds[0];
  const current = appliedService ? { ...applied, service: appliedService } : null;
  const history = useQuery({
    queryKey: ["context-data", workspaceId, "temporal", entityId, propertyId, current],
    queryFn: () => {
      const now = Math.ceil(Date.now() / 1000);
      const window = current!.following ? { from: now - 3600, to: now } : current!;
      return get<TemporalAnswer>(
        `/workspace/${workspaceId}/temporal-entities/${encodeURIComponent(entityId)}/properties/${encodeURIComponent(
          propertyId,
        )}/temporal-services/${encodeURIComponent(current!.service)}?${new URLSearchParams({
          fromTime: String(window.from),
          toTime: String(window.to),
        })}`,
      );
    },
    enabled: !!current && !!property,
  });
  const values = useMemo(() => sortedValues(history.data), [history.data]);
  const subs = useMemo(() => subPropertyNames(values), [values]);
  const series = useMemo(() => numericSeries(values), [values]);
  const badWindow =
    Number.isNaN(utcSeconds(range.from)) ||
    Number.isNaN(utcSeconds(range.to)) ||
    utcSeconds(range.from) > utcSeconds(range.to);
  const serviceName = (id: string) => services.data?.find((s) => s.id === id)?.name ?? id;
  const client = useQueryClient();
  const writes = historyPath(workspaceId, entityId, propertyId);
  const canWrite = can.can("POST", writes);
  const [editing, setEditing] = useState<HistoryValue | "new" | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<HistoryValue | null>(null);
  const refresh = () =>
    client.invalidateQueries({ queryKey: ["context-data", workspaceId, "temporal", entityId, propertyId] });
  const remove = useMutation({
    mutationFn: (instanceId: string) => historyWrites.remove(writes, instanceId),
    onSettled: refresh,
  });
  const deletion = useConfirmedDelete(({ onError }) => {
    if (deleting?.instanceId) remove.mutate(deleting.instanceId, { onError });
  });
  const units = values.some((v) => typeof (v as HistoryValue).unitCode === "string");
  if (model.isPending)
    return <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  if (!property) return <Alert variant="warning">{t("entities.noSuchProperty")}</Alert>;

  return (
    <>
      <Breadcrumbs trail={[...trail, { label: t("temporal.title", { name: property.name }) }]} />
      <Link to={entityHref(workspaceId, typeId, entityId)} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      <Card>
        <Card.Header className="d-flex align-items-center gap-2">
          <h1 className="h5 mb-0 text-break">{t("temporal.title", { name: property.name })}</h1>
          <LiveBadge state={live} />
        </Card.Header>
        <Card.Body>
          {serviceIds.length === 0 ? (
            <Alert variant="info">{t("temporal.noService")}</Alert>
          ) : (
            <Form
              onSubmit={(e) => {
                e.preventDefault();
                if (!badWindow)
                  setApplied({
                    service: chosenService,
                    from: utcSeconds(range.from),
                    to: utcSeconds(range.to),
                  });
              }}
            >
              <Row className="g-2 align-items-end mb-3">
                <Col md={4}>
                  <Form.Group controlId="temporal-service">
                    <Form.Label>{t("temporal.service")}</Form.Label>
                    <Form.Select value={chosenService} onChange={(e) => setService(e.target.value)}>
                      {serviceIds.map((id) => (
                        <option key={id} value={id}>
                          {serviceName(id)}
                        </option>
                      ))}
                    </Form.Select>
                  </Form.Group>
                </Col>
                <Col md={3}>
                  <Form.Group controlId="temporal-from">
                    <Form.Label>{t("temporal.from")}</Form.Label>
                    <Form.Control
                      type="datetime-local"
                      value={range.from}
                      isInvalid={badWindow}
                      onChange={(e) => setRange({ ...range, from: e.target.value })}
                    />
                  </Form.Group>
                </Col>
                <Col md={3}>
                  <Form.Group controlId="temporal-to">
                    <Form.Label>{t("temporal.to")}</Form.Label>
                    <Form.Control
                      type="datetime-local"
                      value={range.to}
                      isInvalid={badWindow}
                      aria-describedby={badWindow ? "temporal-window-error" : undefined}
                      onChange={(e) => setRange({ ...range, to: e.target.value })}
                    />
                  </Form.Group>
                </Col>
                <Col md={2}>
                  <Button type="submit" className="w-100" disabled={badWindow}>
                    {t("temporal.apply")}
                  </Button>
                </Col>
              </Row>
              {badWindow && (
                <div id="temporal-window-error" className="invalid-feedback d-block mb-1">
                  {t("temporal.fromAfterTo")}
                </div>
              )}
              <Form.Text className="d-block mb-2">{t("temporal.utcHint")}</Form.Text>
            </Form>
          )}
          {canWrite && (
            <div className="d-flex flex-wrap gap-2 mb-3">
              <Button variant="outline-primary" size="sm" onClick={() => setEditing("new")}>
                {t("temporal.add")}
              </Button>
              <Button variant="outline-secondary" size="sm" onClick={() => setImporting(true)}>
                {t("temporal.import")}
              </Button>
            </div>
          )}
          {history.isError && <ErrorAlert error={history.error} />}
          {history.isFetching && (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          )}
          {history.isSuccess &&
            (values.length === 0 ? (
              <Alert variant="info" className="mb-0">
                {t("temporal.none")}
              </Alert>
            ) : (
              <>
                {series[0].length > 1 && (
                  <TemporalLegend valueLabel={property.name} written={series[2].some((v) => v !== null)} />
                )}
                {series[0].length > 1 && (
                  <Suspense
                    fallback={
                      <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
                    }
                  >
                    <TemporalChart
                      series={series}
                      label={t("temporal.chart", { name: property.name })}
                      valueLabel={property.name}
                      writtenLabel={t("temporal.written")}
                      timeLabel={t("temporal.timeUtc")}
                      language={i18n.language}
                    />
                  </Suspense>
                )}
                <div
                  style={{ maxHeight: 500, overflowY: "auto" }}
                  className="mt-2"
                  data-testid="temporal-scroll"
                >
                  <Table size="sm" striped className="mb-0 small" aria-label={t("temporal.values")}>
                    <thead className="sticky-top">
                      <tr>
                        <th scope="col">{t("temporal.date")}</th>
                        <th scope="col">{t("entities.value")}</th>
                        <th scope="col">{t("temporal.object")}</th>
                        {units && <th scope="col">{t("temporal.unit")}</th>}
                        {subs.map((name) => (
                          <th scope="col" key={name}>
                            {name}
                          </th>
                        ))}
                        {canWrite && (
                          <th scope="col">
                            <span className="visually-hidden">{t("temporal.actions")}</span>
                          </th>
                        )}
                      </tr>
                    </thead>
                    <tbody>
                      {values.map((value, i) => (
                        <tr key={`${timeOf(value)?.at}-${value.datasetId ?? ""}-${i}`}>
                          <td className="text-nowrap">
                            <TimeCell value={value} />
                          </td>
                          <td>
                            {value.value !== undefined && (
                              <InstanceValue instance={{ ...value, type: "Property" }} />
                            )}
                          </td>
                          <td className="text-break">{objectsOf(value).join(", ")}</td>
                          {units && <td>{String((value as HistoryValue).unitCode ?? "")}</td>}
                          {subs.map((name) => {
                            const sub = instancesOf(value[name])[0];
                            return <td key={name}>{sub ? String(sub.value ?? sub.object ?? "") : ""}</td>;
                          })}
                          {canWrite && (
                            <td className="text-nowrap text-end">
                              {(value as HistoryValue).instanceId && (
                                <>
                                  <Button
                                    variant="link"
                                    size="sm"
                                    className="py-0"
                                    aria-label={t("temporal.correct", { time: timeOf(value)?.at })}
                                    onClick={() => setEditing(value)}
                                  >
                                    {t("common.edit")}
                                  </Button>
                                  <Button
                                    variant="link"
                                    size="sm"
                                    className="py-0 text-danger"
                                    aria-label={t("temporal.delete", { time: timeOf(value)?.at })}
                                    onClick={() => {
                                      setDeleting(value);
                                      deletion.ask();
                                    }}
                                  >
                                    {t("common.delete")}
                                  </Button>
                                </>
                              )}
                            </td>
                          )}
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </div>
              </>
            ))}
        </Card.Body>
      </Card>
      <Suspense fallback={null}>
        {editing && (
          <TemporalInstanceDialog
            base={writes}
            propertyName={property.name}
            instance={editing === "new" ? undefined : editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
        {importing && (
          <TemporalImportDialog
            base={writes}
            propertyName={property.name}
            onClose={() => setImporting(false)}
            onImported={() => void refresh()}
          />
        )}
      </Suspense>
      {deletion.dialogs({
        confirm: t("temporal.deleteConfirm", { time: (deleting && timeOf(deleting)?.at) ?? "" }),
        failed: t("temporal.deleteFailed"),
        detail: remove.error ? String((remove.error as Error).message ?? "") : undefined,
      })}
    </>
  );
}

export default TemporalView;

/** A value's time; one without observedAt is marked as the time the broker wrote it. */
function TimeCell({ value }: { value: Instance }) {
  const { t } = useTranslation();
  const time = timeOf(value);
  if (!time) return null;
  return (
    <>
      <span className="font-monospace">{time.at}</span>
      {time.source !== "observedAt" && (
        <Badge
          bg="warning"
          text="dark"
          className="ms-1"
          title={t("temporal.writtenHint", { source: time.source })}
          data-testid="temporal-written"
        >
          {t("temporal.written")}
          <span className="visually-hidden"> ({t("temporal.writtenHint", { source: time.source })})</span>
        </Badge>
      )}
    </>
  );
}
