import { Button, Card, Spinner } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { useCheckComponent, useComponentHealth } from "./healthApi.ts";
import { HealthSummary } from "./HealthResult.tsx";
import "texts:health";

/**
 * "Check connection" on a component's show page: its last result (from the Status page's checks
 * too) and, for who may check, a button that checks it now: reachable or why not, round trip,
 * version, and for a grant whether it still obtains a token.
 */
export function CheckConnection({ kind, id }: { kind: string; id: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const path = `/health/${kind}/${encodeURIComponent(id)}`;
  const health = useComponentHealth(kind, id, can.can("GET", path));
  const check = useCheckComponent(kind, id);
  if (!can.can("GET", path)) return null;
  return (
    <Card className="mt-3" as="section" aria-label={t("health.connection")}>
      <Card.Header className="d-flex align-items-center justify-content-between gap-2">
        <h2 className="h6 mb-0">{t("health.connection")}</h2>
        {can.can("POST", path) && (
          <Button
            size="sm"
            variant="outline-primary"
            disabled={check.isPending}
            onClick={() => check.mutate()}
          >
            {check.isPending && <Spinner animation="border" size="sm" className="me-1" aria-hidden />}
            {check.isPending ? t("health.checking") : t("health.check")}
          </Button>
        )}
      </Card.Header>
      <Card.Body>
        <ErrorAlert error={check.error ?? health.error} />
        {health.data && <HealthSummary health={health.data} />}
      </Card.Body>
    </Card>
  );
}
