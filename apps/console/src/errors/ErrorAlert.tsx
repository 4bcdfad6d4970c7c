import { useTranslation } from "../i18n/index.ts";
import { ApiError } from "../api.ts";
import { Alert } from "../app/bootstrapMarkup.tsx";
import { Blockers, type Blocker } from "./Blockers.tsx";
import { JsonTree } from "./JsonTree.tsx";

/**
 * The spec's error alert: heading, the error title if any, then the reason as a sentence (the
 * problem's detail, or what the user can do about the status), then the details as a JSON tree
 * expanded to depth 10. A read that failed (a peer that is down) may fold the tree and offer to
 * try again: the sentence says it all, and the panel stays as small as its content. A 409 with a
 * sentence (a create refused for a taken name) is folded likewise, as the delete's blockers are.
 */
export function ErrorAlert({
  error,
  className,
  folded,
  onRetry,
}: {
  error: unknown;
  className?: string;
  folded?: boolean;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  if (!error) return null;
  const body = error instanceof ApiError ? error.body : { detail: (error as Error).message ?? String(error) };
  const reason = error instanceof ApiError ? explain(error, t) : body.detail;
  const blockers =
    Array.isArray(body.referrers) && body.referrers.length > 0 ? (body.referrers as Blocker[]) : [];
  // A conflict (a name taken, a stale copy) is said by its sentence: the answer behind it is folded.
  const conflict = error instanceof ApiError && error.status === 409 && !!reason;
  return (
    <Alert variant="danger" className={`text-break ${className ?? ""}`.trim()} data-testid="error-alert">
      <h2 className="alert-heading h6 text-uppercase">{t("errors.apiReturned")}</h2>
      {body.title && <p className="fw-semibold mb-1">{body.title}</p>}
      {/* The records a refused change waits for are the point: a sentence and their links, the answer folded. */}
      {blockers.length > 0 && body.code === "record.inUse" ? (
        <p className="mb-2">{t("errors.blockedBy")}</p>
      ) : (
        reason && <p className="mb-2">{reason}</p>
      )}
      {blockers.length > 0 && (
        <Blockers
          blockers={blockers}
          total={typeof body.referrersTotal === "number" ? body.referrersTotal : undefined}
        />
      )}
      {blockers.length > 0 || folded || conflict ? (
        <details>
          <summary className="small">{t("errors.answer")}</summary>
          <JsonTree value={body as object} />
        </details>
      ) : (
        <JsonTree value={body as object} />
      )}
      {onRetry && (
        <button type="button" className="btn btn-outline-danger btn-sm mt-2" onClick={onRetry}>
          {t("errors.tryAgain")}
        </button>
      )}
    </Alert>
  );
}

/** A sentence that explains the statuses a user can act on. */
export function explain(error: unknown, t: (key: string) => string): string | undefined {
  if (!(error instanceof ApiError)) return error ? t("errors.network") : undefined;
  if (error.status === 403) return t("errors.forbidden");
  if (error.status === 409) return error.body.detail ?? t("errors.conflict");
  if (error.status === 412) return t("errors.stale");
  return error.body.detail;
}
