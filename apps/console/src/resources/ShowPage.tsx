import type { ReactNode } from "react";
import { Button, Card, Spinner } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import { allKinds, whenHolds, type KindDefinition } from "@orrery/model";
import { PencilIcon, TrashIcon } from "../app/icons.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useConfirmedDelete } from "../errors/Dialogs.tsx";
import { BLOCKED_ID, DeleteConsequences, deleteWaits } from "../errors/DeleteConsequences.tsx";
import { RecordHistory } from "../audit/RecordHistory.tsx";
import { useCan } from "../permissions.ts";
import { placementOf } from "../routes.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { CopyButton } from "./CopyButton.tsx";
import { notify } from "../app/Toasts.tsx";
import { ChildList } from "./ChildList.tsx";
import { FieldValue } from "./FieldValue.tsx";
import { useTitle } from "./titles.ts";
import { labelOf } from "./fieldLabel.ts";
import { useParentCrumbs, usePlace } from "./place.ts";
import { useDelete, useItem, useScope, type Item } from "./queries.ts";
import { useDeleteCheck } from "./deleteCheck.ts";

/**
 * The show page of any kind: breadcrumb through the parents, edit and delete as permitted, the
 * fields that are set, then the lists of records that live inside this one (a type's properties).
 * `extra` is the kind's own content (a type's context file link), `childActions` its own buttons
 * on a child list. After a delete, the parent page.
 */
export function ShowPage({
  kind,
  extra,
  childActions,
  deleteLocked,
  deleteNote,
}: {
  kind: KindDefinition;
  extra?: (item: Item) => ReactNode;
  /** Buttons of the kind's own beside a child list's add button, by child kind (a type's properties import). */
  childActions?: Record<string, ReactNode>;
  /** Why the delete button, shown when permitted, cannot be used (a role: spec section 2, Roles). */
  deleteLocked?: ReactNode;
  /** What a delete leaves behind elsewhere, said in its confirmation (a contract detail's role in the identity manager). */
  deleteNote?: (item: Item, t: TFunction) => string | undefined;
}) {
  const { t } = useTranslation();
  const { id = "", route } = usePlace(kind);
  const crumbs = useParentCrumbs(kind);
  const children = allKinds.filter((c) => placementOf(c).parent === kind.kind && !placementOf(c).index);
  const shown = (child: KindDefinition) => placementOf(child).shownIn?.(data!) ?? true;
  const navigate = useNavigate();
  const can = useCan();
  const item = useItem(kind, id);
  const remove = useDelete(kind);
  const data = item.data?.data;
  const k = (key: string) => t(`kinds.${kind.kind}.${key}`);
  const title = useTitle(kind, data);

  const deletion = useConfirmedDelete(({ onError }) =>
    remove.mutate(id, {
      onSuccess: () => {
        notify(t("operations.deleted", { one: k("one"), name: title ?? id }));
        navigate(route("index"));
      },
      onError,
    }),
  );
  // What the delete would meet, asked as its confirmation opens, and said there before Yes.
  const check = useDeleteCheck(kind, id, useScope(kind), deletion.asking);

  return (
    <>
      <Breadcrumbs trail={[...crumbs, { label: title ?? id }]} />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0 text-break">{title ?? k("one")}</h1>
          <div className="d-flex gap-2">
            {data && can.update(kind, id) && (
              <Link
                to={route("edit", id)}
                className="btn btn-outline-primary btn-sm"
                title={t("common.edit")}
              >
                <PencilIcon /> <span className="visually-hidden-sm">{t("common.edit")}</span>
              </Link>
            )}
            {data && can.destroy(kind, id) && (
              <Button
                variant="outline-danger"
                size="sm"
                onClick={deletion.ask}
                title={t("common.delete")}
                disabled={!!deleteLocked}
                aria-describedby={deleteLocked ? "delete-locked" : undefined}
              >
                <TrashIcon /> <span className="visually-hidden-sm">{t("common.delete")}</span>
              </Button>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          {data && deleteLocked && can.destroy(kind, id) && (
            <p id="delete-locked" className="small text-body-secondary">
              {deleteLocked}
            </p>
          )}
          <ErrorAlert error={remove.error} />
          {item.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : item.isError ? (
            <ErrorAlert error={item.error} />
          ) : (
            <dl className="row mx-0 mb-0">
              <div className="d-contents">
                <dt className="col-12 col-sm-4">{t("fields.id")}</dt>
                <dd className="col-12 col-sm-8">
                  <code className="text-break">{id}</code>
                  <CopyButton text={id} label={t("common.copyId")} />
                </dd>
              </div>
              {kind.fields
                .filter((f) => data![f.name] !== undefined && whenHolds(f.when, data!))
                .map((f) => (
                  <div key={f.name} className="d-contents">
                    <dt className="col-12 col-sm-4">{labelOf(t, f)}</dt>
                    <dd className="col-12 col-sm-8">
                      <FieldValue field={f} value={data![f.name]} item={data} />
                    </dd>
                  </div>
                ))}
            </dl>
          )}
          {data && extra?.(data)}
        </Card.Body>
      </Card>
      {data && <RecordHistory recordId={id} />}
      {data &&
        children
          .filter(shown)
          .map((child) => (
            <ChildList
              key={child.kind}
              parent={kind}
              child={child}
              parentId={id}
              actions={childActions?.[child.kind]}
            />
          ))}
      {deletion.dialogs({
        confirm: t("operations.confirmDelete", { this: k("this"), name: title ?? id }),
        note: data && deleteNote?.(data, t),
        failed: t("operations.deletionFailed", { of: k("of") }),
        detail: explain(remove.error, t),
        consequences: <DeleteConsequences check={check} />,
        blocked: deleteWaits(check),
        why: BLOCKED_ID,
      })}
    </>
  );
}
