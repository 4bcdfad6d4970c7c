import { useState } from "react";
import { Button, Card } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { useCan } from "../permissions.ts";
import type { Item } from "../resources/queries.ts";
import { DecisionsLog } from "./DecisionsLog.tsx";
import { decisionsPath } from "./dataAccessApi.ts";
import "texts:data-access";

/** A workspace's panel: who read or wrote its data on the embedded broker, opened on demand. */
export function DataAccessPanel({ workspace }: { workspace: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const path = decisionsPath(workspace.id);
  if (!can.can("GET", path)) return null;
  return (
    <Card className="mt-3" aria-label={t("dataAccess.title")}>
      <Card.Header className="d-flex justify-content-between align-items-center gap-2">
        <span>{t("dataAccess.title")}</span>
        <Button size="sm" variant="outline-secondary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? t("dataAccess.hide") : t("dataAccess.show")}
        </Button>
      </Card.Header>
      {open && (
        <Card.Body>
          <p className="text-body-secondary small">{t("dataAccess.workspaceIntro")}</p>
          <DecisionsLog path={path} tenantFilter={false} />
        </Card.Body>
      )}
    </Card>
  );
}
