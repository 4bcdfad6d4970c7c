import { useEffect, useState, type FormEvent } from "react";
import { Button, Card, Col, Form, Row, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { allKinds, auditActions, workspaces } from "@orrery/model";
import { LogToolbar, useLogExport } from "../app/LogToolbar.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useList } from "../resources/queries.ts";
import {
  auditCsv,
  fetchAllAudit,
  recordPage,
  useAuditPage,
  type AuditEvent,
  type AuditFilters,
} from "./auditApi.ts";
import { ChangeDiff } from "./ChangeDiff.tsx";
import { actionLabel, kindLabel, outcomeLabel, when } from "./labels.ts";
import "texts:audit";

const kindNames = [...allKinds.map((k) => k.kind), "entities", "users"];

/**
 * Administration → Activity: the audit trail, newest first, filtered and paged by cursor; a row
 * shows its change as a diff and links to the record; the filtered list exports as CSV or JSON.
 */
export default function ActivityPage() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<AuditFilters>({});
  const [filters, setFilters] = useState<AuditFilters>({});
  // The cursors of the pages before this one: "Newer" goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useAuditPage(filters, cursor);
  const [selected, setSelected] = useState<AuditEvent | undefined>();
  const workspaceList = useList(workspaces);
  const workspaceName = (id: string) => workspaceList.data?.find((w) => w.id === id)?.name ?? id;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([]);
    setSelected(undefined);
  };
  const set = (key: keyof AuditFilters) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  const {
    exporting,
    error: exportError,
    exportAs,
  } = useLogExport("activity", () => fetchAllAudit(filters), auditCsv);

  return (
    <>
      <h1 className="h4">{t("audit.title")}</h1>
      <p className="text-body-secondary small">{t("audit.intro")}</p>
      <Form onSubmit={apply} className="mb-3" aria-label={t("audit.filters")}>
        <Row className="g-2">
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-user">
              <Form.Label>{t("audit.user")}</Form.Label>
              <Form.Control size="sm" value={draft.user ?? ""} onChange={set("user")} />
            </Form.Group>
          </Col>
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-action">
              <Form.Label>{t("audit.action")}</Form.Label>
              <Form.Select size="sm" value={draft.action ?? ""} onChange={set("action")}>
                <option value="">{t("audit.any")}</option>
                {auditActions.map((a) => (
                  <option key={a} value={a}>
                    {actionLabel(t, a)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-kind">
              <Form.Label>{t("audit.kind")}</Form.Label>
              <Form.Select size="sm" value={draft.kind ?? ""} onChange={set("kind")}>
                <option value="">{t("audit.any")}</option>
                {kindNames.map((k) => (
                  <option key={k} value={k}>
                    {kindLabel(t, k)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-workspace">
              <Form.Label>{t("audit.workspace")}</Form.Label>
              <Form.Select size="sm" value={draft.workspace ?? ""} onChange={set("workspace")}>
                <option value="">{t("audit.any")}</option>
                {(workspaceList.data ?? []).map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col sm={6} lg={4}>
            <Form.Group controlId="audit-record">
              <Form.Label>{t("audit.record")}</Form.Label>
              <Form.Control size="sm" value={draft.record ?? ""} onChange={set("record")} />
            </Form.Group>
          </Col>
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-from">
              <Form.Label>{t("audit.from")}</Form.Label>
              <Form.Control size="sm" type="datetime-local" value={draft.from ?? ""} onChange={set("from")} />
            </Form.Group>
          </Col>
          <Col sm={6} lg={3}>
            <Form.Group controlId="audit-to">
              <Form.Label>{t("audit.to")}</Form.Label>
              <Form.Control size="sm" type="datetime-local" value={draft.to ?? ""} onChange={set("to")} />
            </Form.Group>
          </Col>
          <Col lg={2} className="d-flex align-items-end">
            <Button type="submit" size="sm" className="w-100">
              {t("audit.apply")}
            </Button>
          </Col>
        </Row>
      </Form>
      <LogToolbar
        texts={{
          export: t("audit.export"),
          exportCsv: t("audit.exportCsv"),
          exportJson: t("audit.exportJson"),
          paging: t("audit.paging"),
          newer: t("audit.newer"),
          older: t("audit.older"),
        }}
        exporting={exporting}
        onExport={exportAs}
        onNewer={
          cursors.length
            ? () => {
                setCursors((c) => c.slice(0, -1));
                setSelected(undefined);
              }
            : undefined
        }
        onOlder={
          page.data?.next
            ? () => {
                setCursors((c) => [...c, page.data!.next!]);
                setSelected(undefined);
              }
            : undefined
        }
      />
      <ErrorAlert error={exportError} />
      {page.isPending ? (
        <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
      ) : page.isError ? (
        <ErrorAlert error={page.error} />
      ) : !page.data.items.length ? (
        <p className="text-body-secondary">{t("audit.none")}</p>
      ) : (
        <Row className="g-3">
          <Col lg={selected ? 7 : 12}>
            <Table hover size="sm" responsive className="audit-list">
              <thead>
                <tr>
                  <th scope="col">{t("audit.when")}</th>
                  <th scope="col">{t("audit.user")}</th>
                  <th scope="col">{t("audit.action")}</th>
                  <th scope="col">{t("audit.recordColumn")}</th>
                  <th scope="col">{t("audit.workspace")}</th>
                  <th scope="col">{t("audit.outcome")}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((e) => (
                  <tr
                    key={e.id}
                    className={selected?.id === e.id ? "table-active" : undefined}
                    aria-selected={selected?.id === e.id}
                  >
                    <td className="text-nowrap">
                      <Button variant="link" size="sm" className="p-0" onClick={() => setSelected(e)}>
                        {when(e.at, i18n.language)}
                      </Button>
                    </td>
                    <td>{e.username}</td>
                    <td>{actionLabel(t, e.action)}</td>
                    <td className="text-break">
                      {kindLabel(t, e.kind)} {e.title && <strong>{e.title}</strong>}
                    </td>
                    <td>{e.workspaceId ? workspaceName(e.workspaceId) : ""}</td>
                    <td>{outcomeLabel(t, e.outcome)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Col>
          {selected && (
            <Col lg={5}>
              <EventCard event={selected} onClose={() => setSelected(undefined)} />
            </Col>
          )}
        </Row>
      )}
    </>
  );
}

/** The chosen event: who, when, the change as a diff, and a link to the record while it exists. */
function EventCard({ event, onClose }: { event: AuditEvent; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState<string | undefined>();
  useEffect(() => {
    let current = true;
    setPage(undefined);
    recordPage(event)
      .then((to) => current && setPage(to))
      .catch(() => undefined); // deleted since, or not a record of the console: no link
    return () => {
      current = false;
    };
  }, [event]);
  return (
    <Card aria-label={t("audit.change")}>
      <Card.Header className="d-flex justify-content-between align-items-center gap-2">
        <span>
          {actionLabel(t, event.action)} · {kindLabel(t, event.kind)} <strong>{event.title}</strong>
        </span>
        <Button variant="close" aria-label={t("common.close")} onClick={onClose} />
      </Card.Header>
      <Card.Body>
        <p className="small mb-2">
          {t("audit.by", {
            user: event.username,
            provider: event.provider,
            when: when(event.at, i18n.language),
          })}
        </p>
        <ChangeDiff event={event} />
        {page && (
          <Link to={page} className="btn btn-sm btn-outline-primary mt-2">
            {t("audit.openRecord")}
          </Link>
        )}
      </Card.Body>
    </Card>
  );
}
