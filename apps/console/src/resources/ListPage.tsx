import type { ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import type { KindDefinition } from "@orrery/model";
import { Alert, Spinner } from "../app/bootstrapMarkup.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { lineage } from "../routes.ts";
import { Breadcrumbs, usePageTitle } from "./Breadcrumbs.tsx";
import { useParentCrumbs, usePlace } from "./place.ts";
import { useList, type Item } from "./queries.ts";
import { CreateButton, RecordTable, type Cells } from "./RecordTable.tsx";

/**
 * The list page of any kind: title, '+' with store permission, rows the user may show, sorted by
 * name. A workspace-scoped list has a breadcrumb through its parents; `actions` are the kind's own
 * buttons (generate, for types); `leading` is a first column without header text (the workspaces'
 * open/close toggle) and `cells` draw some columns their own way.
 */
export function ListPage({
  kind,
  actions,
  leading,
  cells,
}: {
  kind: KindDefinition;
  actions?: ReactNode;
  leading?: { label: string; cell: (item: Item) => ReactNode };
  cells?: Cells;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useList(kind);
  const { route } = usePlace(kind);
  const crumbs = useParentCrumbs(kind);
  const rows = (list.data ?? []).filter((item) => can.listed(kind, item.id));
  const title = t(`kinds.${kind.kind}.many`);
  // A list without breadcrumbs (a platform kind) names the tab itself.
  usePageTitle([title], lineage(kind).length === 1);
  return (
    <>
      {lineage(kind).length > 1 && <Breadcrumbs trail={crumbs} />}
      <div className="card">
        <div className="card-header d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0">{title}</h1>
          <div className="d-flex gap-2">
            {actions}
            {can.store(kind) && <CreateButton kind={kind} to={route("create")} />}
          </div>
        </div>
        <div className="card-body">
          {list.isPending ? (
            <Spinner size="sm" role="status" aria-label={t("app.loading")} />
          ) : list.isError ? (
            <ErrorAlert error={list.error} />
          ) : rows.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t(`kinds.${kind.kind}.none`)}
            </Alert>
          ) : (
            <RecordTable
              kind={kind}
              rows={rows.map((item) => ({ item }))}
              showPath={(id) => route("show", id)}
              linked={(id) => can.show(kind, id)}
              leading={leading}
              cells={cells}
            />
          )}
        </div>
      </div>
    </>
  );
}
