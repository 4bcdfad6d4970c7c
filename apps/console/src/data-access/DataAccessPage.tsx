import { useTranslation } from "../i18n/index.ts";
import { DecisionsLog } from "./DecisionsLog.tsx";
import { decisionsPath } from "./dataAccessApi.ts";
import "texts:data-access";

/** Administration → Data access: every decision of the embedded broker's policy enforcement point. */
export default function DataAccessPage() {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="h4">{t("dataAccess.title")}</h1>
      <p className="text-body-secondary small">{t("dataAccess.intro")}</p>
      <DecisionsLog path={decisionsPath()} tenantFilter />
    </>
  );
}
