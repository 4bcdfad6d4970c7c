import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { services } from "@orrery/model";
import { useCan } from "../permissions.ts";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";

/** Whether a service record is in FDSC mode (ODRL policies in a PAP, credentials in a CCS). */
export const isFdsc = (service: Record<string, unknown> | undefined) =>
  service?.authorizationRequired === true && service.authorizationMode === "fdsc";

/** A role's synchronisation texts in FDSC mode: its policies go to the service's PAP, not to a registry. */
export const roleSyncTexts = {
  button: "fdsc.roleSync.button",
  confirm: "fdsc.roleSync.confirm",
  done: "fdsc.roleSync.done",
  failed: "fdsc.roleSync.failed",
};

/** The workspace view's link to its ODRL policies, when its service is in FDSC mode. */
export function PoliciesLink({ workspaceId, serviceId }: { workspaceId: string; serviceId?: unknown }) {
  const { t } = useTranslation();
  const can = useCan();
  const id = typeof serviceId === "string" ? serviceId : undefined;
  const service = useItem(services, id, !!id && can.show(services, id ?? ""));
  if (!isFdsc(service.data?.data) || !can.can("GET", `/workspace/${workspaceId}/odrl-policies`)) return null;
  return (
    <Link to={routeTo("odrlPolicies.index", { workspaceId })} className="btn btn-outline-primary btn-sm">
      {t("fdsc.policies.title")}
    </Link>
  );
}

/** The service page's link to its credential configuration, in FDSC mode. */
export function CredentialConfigurationLink({
  service,
}: {
  service: Record<string, unknown> & { id: string };
}) {
  const { t } = useTranslation();
  const can = useCan();
  if (!isFdsc(service) || !can.can("GET", `/services/${service.id}/credential-configuration`)) return null;
  return (
    <div className="mt-3">
      <Link
        to={routeTo("credentialConfiguration.show", { id: service.id })}
        className="btn btn-outline-primary btn-sm"
      >
        {t("fdsc.credentials.title")}
      </Link>
    </div>
  );
}

/** A trusted issuers list page's link to its issuers. */
export function IssuersLink({ list }: { list: { id: string } }) {
  const { t } = useTranslation();
  const can = useCan();
  if (!can.can("GET", `/trusted-issuers-lists/${list.id}/issuers`)) return null;
  return (
    <div className="mt-3">
      <Link to={routeTo("trustedIssuers.index", { id: list.id })} className="btn btn-outline-primary btn-sm">
        {t("fdsc.issuers.title")}
      </Link>
    </div>
  );
}
