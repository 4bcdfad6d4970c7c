import { Card, Spinner } from "react-bootstrap";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import type { KindDefinition } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { useWorkspaceRules } from "../workspaces/workspaceRules.ts";
import { useContractRules } from "../contracts/contractRules.ts";
import { useWotRules } from "../wot/wotRules.ts";
import { useParentCrumbs, usePlace } from "./place.ts";
import { useItem } from "./queries.ts";
import { ResourceForm } from "./ResourceForm.tsx";
import { useTitles } from "./titles.ts";
import { notify } from "../app/Toasts.tsx";
import { handOver } from "./shownOnce.ts";

/** Create and edit pages: breadcrumb, back button, form card; after saving, the item's show page. */
export function FormPage({ kind, action }: { kind: KindDefinition; action: "create" | "edit" }) {
  const { t } = useTranslation();
  const { id, params, place, route } = usePlace(kind);
  const navigate = useNavigate();
  const item = useItem(kind, action === "edit" ? id : undefined);
  const crumbs = useParentCrumbs(kind);
  const rules = { ...useWorkspaceRules(kind), ...useContractRules(kind), ...useWotRules(kind) };
  const k = (key: string) => t(`kinds.${kind.kind}.${key}`);
  const titles = useTitles(kind);
  const name = item.data ? titles(item.data.data) : (id ?? "");
  const trail =
    action === "create"
      ? [...crumbs, { label: t("common.create") }]
      : [...crumbs, { label: name, to: route("show", id) }, { label: t("common.edit") }];
  const back = action === "create" ? route("index") : route("show", id);
  // Fields the route decides (a property's type): set from it, not shown.
  const fixed = Object.fromEntries(
    Object.entries(place.fromRoute ?? {}).map(([field, param]) => [field, params[param]]),
  );
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
              fixed={fixed}
              rules={rules}
              onSaved={(saved) => {
                // A create's answer may show a secret once (a broker client's key): for the next page.
                if (action === "create" && typeof saved.key === "string") handOver(saved.id, saved.key);
                notify(
                  t(action === "create" ? "operations.created" : "operations.updated", {
                    one: k("one"),
                    name: titles(saved),
                  }),
                );
                navigate(route("show", saved.id));
              }}
              onCancel={() => navigate(back)}
            />
          )}
        </Card.Body>
      </Card>
    </>
  );
}
