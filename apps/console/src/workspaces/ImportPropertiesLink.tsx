import { Link, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useCan } from "../permissions.ts";
import { routeTo } from "../routes.ts";

/** On types.show, beside the properties' add button: shown with the import permission. */
export function ImportPropertiesLink() {
  const { t } = useTranslation();
  const can = useCan();
  const { workspaceId = "", typeId = "" } = useParams();
  if (!can.can("POST", `/workspace/${workspaceId}/properties/import`)) return null;
  return (
    <Link
      to={routeTo("properties.import", { workspaceId, typeId })}
      className="btn btn-outline-primary btn-sm"
    >
      {t("properties.import")}
    </Link>
  );
}
