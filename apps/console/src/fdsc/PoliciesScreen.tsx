import { Alert, Button, Card, Spinner, Table } from "react-bootstrap";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { workspaces } from "@orrery/model";
import { PencilIcon, TrashIcon } from "../app/icons.tsx";
import { notify } from "../app/Toasts.tsx";
import { useConfirmedDelete, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { PolicyEditor } from "./PolicyEditor.tsx";
import { PolicyStatement } from "./PolicyStatement.tsx";
import { policiesPath, useDeletePolicy, usePolicies, usePolicy, useSavePolicy } from "./policyQueries.ts";
import "texts:fdsc";

type Action = "index" | "create" | "show" | "edit";

/** Breadcrumbs from the workspaces through this workspace to its policies. */
function useTrail(workspaceId: string) {
  const { t } = useTranslation();
  const workspace = useItem(workspaces, workspaceId);
  return [
    { label: t("kinds.workspaces.many"), to: routeTo("workspaces.index") },
    { label: String(workspace.data?.data.name ?? workspaceId), to: routeTo("workspace", { workspaceId }) },
    { label: t("fdsc.policies.title"), to: routeTo("odrlPolicies.index", { workspaceId }) },
  ];
}

function PolicyList({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const policies = usePolicies(workspaceId);
  const trail = useTrail(workspaceId);
  return (
    <>
      <Breadcrumbs trail={[...trail.slice(0, 2), { label: trail[2]!.label }]} />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0">{t("fdsc.policies.title")}</h1>
          {can.can("POST", policiesPath(workspaceId)) && (
            <Link to={routeTo("odrlPolicies.create", { workspaceId })} className="btn btn-primary btn-sm">
              + {t("common.create")}
            </Link>
          )}
        </Card.Header>
        <Card.Body>
          <p className="small text-body-secondary">{t("fdsc.policies.intro")}</p>
          {policies.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : policies.isError ? (
            <ErrorAlert error={policies.error} />
          ) : policies.data.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t("fdsc.policies.none")}
            </Alert>
          ) : (
            <Table hover responsive size="sm" className="mb-0">
              <thead>
                <tr>
                  <th>{t("fdsc.policies.uid")}</th>
                  <th>{t("fdsc.policies.statement")}</th>
                  <th>{t("fdsc.policies.id")}</th>
                </tr>
              </thead>
              <tbody>
                {policies.data.map((p) => (
                  <tr key={p.id}>
                    <td className="text-break">
                      <Link to={routeTo("odrlPolicies.show", { workspaceId, policyId: p.id })}>
                        {p.uid || p.id}
                      </Link>
                    </td>
                    <td className="small">
                      <PolicyStatement odrl={p.odrl} />
                    </td>
                    <td>
                      <code>{p.id}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card.Body>
      </Card>
    </>
  );
}

function PolicyShow({ workspaceId, policyId }: { workspaceId: string; policyId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const policy = usePolicy(workspaceId, policyId);
  const remove = useDeletePolicy(workspaceId);
  const trail = useTrail(workspaceId);
  const path = `${policiesPath(workspaceId)}/${encodeURIComponent(policyId)}`;
  const label = policy.data?.uid || policyId;
  const deletion = useConfirmedDelete(({ onError }) =>
    remove.mutate(policyId, {
      onSuccess: () => {
        notify(t("fdsc.policies.deleted", { name: label }));
        navigate(routeTo("odrlPolicies.index", { workspaceId }));
      },
      onError,
    }),
  );
  return (
    <>
      <Breadcrumbs trail={[...trail, { label }]} />
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0 text-break">{label}</h1>
          <div className="d-flex gap-2">
            {policy.data && can.can("PUT", path) && (
              <Link
                to={routeTo("odrlPolicies.edit", { workspaceId, policyId })}
                className="btn btn-outline-primary btn-sm"
                title={t("common.edit")}
              >
                <PencilIcon /> <span className="visually-hidden-sm">{t("common.edit")}</span>
              </Link>
            )}
            {policy.data && can.can("DELETE", path) && (
              <Button variant="outline-danger" size="sm" onClick={deletion.ask} title={t("common.delete")}>
                <TrashIcon /> <span className="visually-hidden-sm">{t("common.delete")}</span>
              </Button>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          <ErrorAlert error={remove.error} />
          {policy.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : policy.isError ? (
            <ErrorAlert error={policy.error} />
          ) : (
            <>
              <dl className="row mx-0">
                <dt className="col-12 col-sm-3">{t("fdsc.policies.id")}</dt>
                <dd className="col-12 col-sm-9">
                  <code>{policy.data.id}</code>
                </dd>
                <dt className="col-12 col-sm-3">{t("fdsc.policies.uid")}</dt>
                <dd className="col-12 col-sm-9 text-break">{policy.data.uid}</dd>
                <dt className="col-12 col-sm-3">{t("fdsc.policies.statement")}</dt>
                <dd className="col-12 col-sm-9">
                  <PolicyStatement odrl={policy.data.odrl} />
                </dd>
              </dl>
              <details className="mb-2">
                <summary>{t("fdsc.policies.rego")}</summary>
                <pre className="small bg-body-tertiary p-2 mt-2" data-testid="policy-rego">
                  {policy.data.rego}
                </pre>
              </details>
              <details>
                <summary>{t("fdsc.policies.odrl")}</summary>
                <pre className="small bg-body-tertiary p-2 mt-2">
                  {JSON.stringify(policy.data.odrl, null, 4)}
                </pre>
              </details>
            </>
          )}
        </Card.Body>
      </Card>
      {deletion.dialogs({
        confirm: t("fdsc.policies.confirmDelete", { name: label }),
        failed: t("fdsc.policies.deletionFailed"),
        detail: explain(remove.error, t),
      })}
    </>
  );
}

function PolicyForm({ workspaceId, policyId }: { workspaceId: string; policyId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const policy = usePolicy(workspaceId, policyId);
  const save = useSavePolicy(workspaceId);
  const failure = useFailureDialog();
  const trail = useTrail(workspaceId);
  const editing = !!policyId;
  const label = policy.data?.uid || policyId || "";
  const cancel = editing
    ? routeTo("odrlPolicies.show", { workspaceId, policyId })
    : routeTo("odrlPolicies.index", { workspaceId });
  return (
    <>
      <Breadcrumbs
        trail={[
          ...trail,
          ...(editing
            ? [{ label, to: cancel }, { label: t("common.edit") }]
            : [{ label: t("common.create") }]),
        ]}
      />
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0 text-break">
            {editing ? t("common.editTitle", { name: label }) : t("fdsc.policies.createTitle")}
          </h1>
        </Card.Header>
        <Card.Body>
          {editing && policy.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : editing && policy.isError ? (
            <ErrorAlert error={policy.error} />
          ) : (
            <PolicyEditor
              workspaceId={workspaceId}
              odrl={policy.data?.odrl}
              busy={save.isPending}
              error={save.error}
              cancel={cancel}
              onSave={(odrl) =>
                save.mutate(
                  { id: policyId, odrl },
                  {
                    onSuccess: (saved) => {
                      notify(t("fdsc.policies.saved", { name: saved.uid || saved.id }));
                      navigate(routeTo("odrlPolicies.show", { workspaceId, policyId: saved.id }));
                    },
                    onError: failure.show,
                  },
                )
              }
            />
          )}
        </Card.Body>
      </Card>
      {failure.dialog(
        t(editing ? "fdsc.policies.updateFailed" : "fdsc.policies.creationFailed"),
        explain(save.error, t),
      )}
    </>
  );
}

/**
 * The ODRL policies of a workspace whose service is in FDSC mode (routes odrlPolicies.*): its PAP's
 * policies listed and read as statements, each with the Rego the PAP generated; created and edited
 * with the guided builder or as JSON.
 */
export default function PoliciesScreen({ action }: { action: Action }) {
  const { workspaceId = "", policyId } = useParams();
  if (action === "index") return <PolicyList workspaceId={workspaceId} />;
  if (action === "show") return <PolicyShow workspaceId={workspaceId} policyId={policyId ?? ""} />;
  return <PolicyForm workspaceId={workspaceId} policyId={action === "edit" ? policyId : undefined} />;
}
