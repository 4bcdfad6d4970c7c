import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { workspaces } from "@orrery/model";
import { notify } from "../app/Toasts.tsx";
import { useConfirmedDelete, useFailureDialog } from "../errors/Dialogs.tsx";
import { explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { FormCard, ListCard, QueryBody, ShowCard } from "./FdscPages.tsx";
import { PolicyEditor } from "./PolicyEditor.tsx";
import { policyTitle, PolicyStatement } from "./PolicyStatement.tsx";
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
    <ListCard
      trail={trail}
      title={t("fdsc.policies.title")}
      create={
        can.can("POST", policiesPath(workspaceId))
          ? routeTo("odrlPolicies.create", { workspaceId })
          : undefined
      }
      intro={t("fdsc.policies.intro")}
      query={policies}
      none={t("fdsc.policies.none")}
      responsive
      head={
        <>
          <th>{t("fdsc.policies.policy")}</th>
          <th>{t("fdsc.policies.statement")}</th>
          <th>{t("fdsc.policies.id")}</th>
        </>
      }
      row={(p) => (
        <tr key={p.id}>
          <td className="text-break">
            <Link to={routeTo("odrlPolicies.show", { workspaceId, policyId: p.id })}>
              {policyTitle(t, p)}
            </Link>
          </td>
          <td className="small">
            <PolicyStatement odrl={p.odrl} />
          </td>
          <td>
            <code>{p.id}</code>
          </td>
        </tr>
      )}
    />
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
  const label = policy.data ? policyTitle(t, policy.data) : policyId;
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
      <ShowCard
        trail={trail}
        label={label}
        edit={
          policy.data && can.can("PUT", path)
            ? routeTo("odrlPolicies.edit", { workspaceId, policyId })
            : undefined
        }
        onDelete={policy.data && can.can("DELETE", path) ? deletion.ask : undefined}
        removeError={remove.error}
      >
        <QueryBody query={policy}>
          {(found) => (
            <>
              <dl className="row mx-0">
                <dt className="col-12 col-sm-3">{t("fdsc.policies.id")}</dt>
                <dd className="col-12 col-sm-9">
                  <code>{found.id}</code>
                </dd>
                <dt className="col-12 col-sm-3">{t("fdsc.policies.uid")}</dt>
                <dd className="col-12 col-sm-9 text-break">{found.uid}</dd>
                <dt className="col-12 col-sm-3">{t("fdsc.policies.statement")}</dt>
                <dd className="col-12 col-sm-9">
                  <PolicyStatement odrl={found.odrl} />
                </dd>
              </dl>
              <details className="mb-2">
                <summary>{t("fdsc.policies.rego")}</summary>
                <pre className="small bg-body-tertiary p-2 mt-2" data-testid="policy-rego">
                  {found.rego}
                </pre>
              </details>
              <details>
                <summary>{t("fdsc.policies.odrl")}</summary>
                <pre className="small bg-body-tertiary p-2 mt-2">{JSON.stringify(found.odrl, null, 4)}</pre>
              </details>
            </>
          )}
        </QueryBody>
      </ShowCard>
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
  const label = policy.data ? policyTitle(t, policy.data) : (policyId ?? "");
  const cancel = editing
    ? routeTo("odrlPolicies.show", { workspaceId, policyId })
    : routeTo("odrlPolicies.index", { workspaceId });
  return (
    <>
      <FormCard
        trail={trail}
        editing={editing ? label : undefined}
        cancel={cancel}
        createTitle={t("fdsc.policies.createTitle")}
        record={policy}
      >
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
                  notify(t("fdsc.policies.saved", { name: policyTitle(t, saved) }));
                  navigate(routeTo("odrlPolicies.show", { workspaceId, policyId: saved.id }));
                },
                onError: failure.show,
              },
            )
          }
        />
      </FormCard>
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
