import { useState } from "react";
import { Button, Card, ListGroup, Spinner } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { useAuditPage } from "./auditApi.ts";
import { ChangeDiff } from "./ChangeDiff.tsx";
import { actionLabel, outcomeLabel, when } from "./labels.ts";
import "texts:audit";

/**
 * A record's History on its show page: who changed it and how, newest first, read from the audit
 * trail when opened (only for those who may read the trail).
 */
export function RecordHistory({ recordId }: { recordId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can.can("GET", "/audit")) return null;
  return (
    <Card className="mt-3">
      <Card.Header className="d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{t("audit.history")}</h2>
        <Button
          variant="outline-secondary"
          size="sm"
          aria-expanded={open}
          aria-controls="record-history"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? t("audit.hideHistory") : t("audit.showHistory")}
        </Button>
      </Card.Header>
      {open && <HistoryList recordId={recordId} />}
    </Card>
  );
}

function HistoryList({ recordId }: { recordId: string }) {
  const { t, i18n } = useTranslation();
  const [cursors, setCursors] = useState<string[]>([]);
  const page = useAuditPage({ record: recordId }, cursors.at(-1));
  if (page.isPending)
    return (
      <Card.Body id="record-history">
        <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
      </Card.Body>
    );
  if (page.isError)
    return (
      <Card.Body id="record-history">
        <ErrorAlert error={page.error} />
      </Card.Body>
    );
  return (
    <ListGroup variant="flush" id="record-history">
      {!page.data.items.length && (
        <ListGroup.Item className="text-body-secondary">{t("audit.none")}</ListGroup.Item>
      )}
      {page.data.items.map((e) => (
        <ListGroup.Item key={e.id} as="section" aria-label={actionLabel(t, e.action)}>
          <div className="small mb-1">
            <strong>{actionLabel(t, e.action)}</strong>
            {e.outcome !== "success" && <> ({outcomeLabel(t, e.outcome)})</>} ·{" "}
            {t("audit.by", { user: e.username, provider: e.provider, when: when(e.at, i18n.language) })}
          </div>
          <ChangeDiff event={e} />
        </ListGroup.Item>
      ))}
      {(cursors.length > 0 || page.data.next) && (
        <ListGroup.Item className="d-flex gap-2">
          <Button
            size="sm"
            variant="outline-primary"
            disabled={!cursors.length}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            {t("audit.newer")}
          </Button>
          <Button
            size="sm"
            variant="outline-primary"
            disabled={!page.data.next}
            onClick={() => setCursors((c) => [...c, page.data.next!])}
          >
            {t("audit.older")}
          </Button>
        </ListGroup.Item>
      )}
    </ListGroup>
  );
}
