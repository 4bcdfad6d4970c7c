import { Badge } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import type { ComponentHealth, HealthState } from "./healthApi.ts";

const variants: Record<HealthState, string> = {
  up: "success",
  down: "danger",
  unchecked: "secondary",
  notApplicable: "light",
};

/** Up, down, not checked yet, or not applicable, as a coloured badge with its words. */
export function StateBadge({ state }: { state: HealthState }) {
  const { t } = useTranslation();
  return (
    <Badge bg={variants[state]} text={state === "notApplicable" ? "dark" : undefined} data-state={state}>
      {
        {
          up: t("health.states.up"),
          down: t("health.states.down"),
          unchecked: t("health.states.unchecked"),
          notApplicable: t("health.states.notApplicable"),
        }[state]
      }
    </Badge>
  );
}

/** When a check was taken, in the reader's language, or "never". */
export function CheckedAt({ at }: { at: string | null }) {
  const { t, i18n } = useTranslation();
  if (!at) return <>{t("health.never")}</>;
  const when = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "medium" }).format(when)}
    </time>
  );
}

/** Why it is down (or a note when up): the API's sentences. */
export function Reasons({ health }: { health: ComponentHealth }) {
  if (!health.reasons.length) return null;
  return <span className="health-reasons">{health.reasons.map((r) => r.message).join(" ")}</span>;
}

/** A result in one block: state, round trip, version, when, and the reasons. */
export function HealthSummary({ health }: { health: ComponentHealth }) {
  const { t } = useTranslation();
  return (
    <dl className="row mb-0 small" aria-label={t("health.lastCheck")}>
      <dt className="col-sm-3">{t("health.columns.state")}</dt>
      <dd className="col-sm-9">
        <StateBadge state={health.state} /> <Reasons health={health} />
      </dd>
      {health.roundTripMs !== null && (
        <>
          <dt className="col-sm-3">{t("health.columns.roundTrip")}</dt>
          <dd className="col-sm-9">{t("health.milliseconds", { ms: health.roundTripMs })}</dd>
        </>
      )}
      {health.version && (
        <>
          <dt className="col-sm-3">{t("health.columns.version")}</dt>
          <dd className="col-sm-9">{health.version}</dd>
        </>
      )}
      <dt className="col-sm-3">{t("health.columns.checkedAt")}</dt>
      <dd className="col-sm-9">
        <CheckedAt at={health.checkedAt} />
      </dd>
    </dl>
  );
}
