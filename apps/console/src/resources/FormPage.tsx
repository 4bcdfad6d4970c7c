import { Card, Spinner } from "react-bootstrap";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import type { KindDefinition } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { kindRoute } from "../routes.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { useItem } from "./queries.ts";
import { ResourceForm } from "./ResourceForm.tsx";

/** Create and edit pages: breadcrumb, back button, form card; after saving, the item's show page. */
export function FormPage({ kind, action }: { kind: KindDefinition; action: "create" | "edit" }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const item = useItem(kind, action === "edit" ? id : undefined);
  const k = (key: string) => t(`kinds.${kind.kind}.${key}`);
  const name = item.data?.data.name ?? id ?? "";
  const trail =
    action === "create"
      ? [{ label: k("many"), to: kindRoute(kind, "index") }, { label: t("common.create") }]
      : [
          { label: k("many"), to: kindRoute(kind, "index") },
          { label: name, to: kindRoute(kind, "show", id) },
          { label: t("common.edit") },
        ];
  const back = action === "create" ? kindRoute(kind, "index") : kindRoute(kind, "show", id);
  return (
    <>
      <Breadcrumbs trail={trail} />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0">
            {action === "create"
              ? t("common.createTitle", { kind: k("one") })
              : t("common.editTitle", { name })}
          </h1>
        </Card.Header>
        <Card.Body>
          {action === "edit" && item.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : action === "edit" && item.isError ? (
            <ErrorAlert error={item.error} />
          ) : (
            <ResourceForm
              kind={kind}
              item={item.data?.data}
              etag={item.data?.etag}
              onSaved={(saved) => navigate(kindRoute(kind, "show", saved.id))}
            />
          )}
        </Card.Body>
      </Card>
    </>
  );
}
