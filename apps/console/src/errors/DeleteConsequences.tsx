import { Spinner } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import type { UseQueryResult } from "@tanstack/react-query";
import type { DeleteCheck } from "../resources/deleteCheck.ts";
import { Blockers } from "./Blockers.tsx";

/** The id of the sentence that says why Yes cannot be given (the disabled button points at it). */
export const BLOCKED_ID = "delete-blocked";

/** Whether the confirmation's Yes waits: while the check runs, and while something keeps the record. */
export const deleteWaits = (check: UseQueryResult<DeleteCheck>) =>
  check.isPending || check.isFetching || (check.data?.blockers.length ?? 0) > 0;

/**
 * What a delete would meet, said in its confirmation before Yes: the records that keep it (each a
 * link to its page), or the links that go with it. A check that failed says so and leaves the
 * delete to answer for itself.
 */
export function DeleteConsequences({ check }: { check: UseQueryResult<DeleteCheck> }) {
  const { t } = useTranslation();
  // Asked again at every opening: an answer of an earlier opening is not shown as today's.
  if (check.isPending || check.isFetching)
    return (
      <div className="small text-body-secondary mt-2" role="status">
        <Spinner animation="border" size="sm" aria-hidden="true" /> {t("errors.deleteChecking")}
      </div>
    );
  if (check.isError)
    return <p className="small text-body-secondary mt-2 mb-0">{t("errors.deleteUnchecked")}</p>;
  const { blockers, cascades } = check.data;
  return (
    <div className="mt-2 delete-consequences">
      {blockers.length > 0 && (
        <>
          <p id={BLOCKED_ID} className="text-danger mb-1">
            {t("errors.blockedBy")}
          </p>
          <Blockers blockers={blockers} total={check.data.blockersTotal} />
        </>
      )}
      {cascades.length > 0 && (
        <>
          <p className="small text-body-secondary mb-1">{t("errors.cascadesNote")}</p>
          <Blockers blockers={cascades} label={t("errors.cascades")} />
        </>
      )}
      {!blockers.length && !cascades.length && (
        <p className="small text-body-secondary mb-0">{t("errors.deleteFree")}</p>
      )}
    </div>
  );
}
