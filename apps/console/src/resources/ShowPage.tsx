import { useState } from "react";
import { Button, Card, Spinner } from "react-bootstrap";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { whenHolds, type KindDefinition } from "@orrery/model";
import { PencilIcon, TrashIcon } from "../app/icons.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { ConfirmDialog, MessageDialog } from "../errors/Dialogs.tsx";
import { useCan } from "../permissions.ts";
import { kindRoute } from "../routes.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { FieldValue } from "./FieldValue.tsx";
import { useDelete, useItem } from "./queries.ts";

/** The show page of any kind: breadcrumb, edit and delete as permitted, the fields that are set. */
export function ShowPage({ kind }: { kind: KindDefinition }) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const can = useCan();
  const item = useItem(kind, id);
  const remove = useDelete(kind);
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);
  const data = item.data?.data;
  const k = (key: string) => t(`kinds.${kind.kind}.${key}`);

  const onDelete = () => {
    setConfirming(false);
    remove.mutate(id, {
      onSuccess: () => navigate(kindRoute(kind, "index")),
      onError: () => setFailed(true),
    });
  };

  return (
    <>
      <Breadcrumbs
        trail={[{ label: k("many"), to: kindRoute(kind, "index") }, { label: data?.name ?? id }]}
      />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0 text-break">{data?.name ?? k("one")}</h1>
          <div className="d-flex gap-2">
            {data && can.update(kind, id) && (
              <Link
                to={kindRoute(kind, "edit", id)}
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
                onClick={() => setConfirming(true)}
                title={t("common.delete")}
              >
                <TrashIcon /> <span className="visually-hidden-sm">{t("common.delete")}</span>
              </Button>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          <ErrorAlert error={remove.error} />
          {item.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : item.isError ? (
            <ErrorAlert error={item.error} />
          ) : (
            <dl className="row mb-0">
              {kind.fields
                .filter((f) => data![f.name] !== undefined && whenHolds(f.when, data!))
                .map((f) => (
                  <div key={f.name} className="d-contents">
                    <dt className="col-12 col-sm-4">{t(`fields.${f.name}`)}</dt>
                    <dd className="col-12 col-sm-8">
                      <FieldValue field={f} value={data![f.name]} />
                    </dd>
                  </div>
                ))}
            </dl>
          )}
        </Card.Body>
      </Card>
      <ConfirmDialog
        show={confirming}
        message={t("operations.confirmDelete", { this: k("this") })}
        onYes={onDelete}
        onNo={() => setConfirming(false)}
      />
      <MessageDialog
        show={failed}
        title={t("common.errorTitle")}
        message={t("operations.deletionFailed", { of: k("of") })}
        detail={explain(remove.error, t)}
        onClose={() => setFailed(false)}
      />
    </>
  );
}
