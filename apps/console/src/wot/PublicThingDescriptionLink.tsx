import { useTranslation } from "../i18n/index.ts";
import type { Item } from "../resources/queries.ts";
import { CopyButton } from "../resources/CopyButton.tsx";

/**
 * On a thing description's page: its public W3C WoT Thing Description, served by the API without a
 * login at /wot-thing-descriptions/{id} beside the console (opens in a new tab).
 */
export function PublicThingDescriptionLink({ td }: { td: Item }) {
  const { t } = useTranslation();
  const url = new URL(
    `/wot-thing-descriptions/${encodeURIComponent(td.id)}`,
    window.location.origin,
  ).toString();
  return (
    <div className="mt-3">
      <p className="mb-1">
        {t("common.labelled", { label: t("wot.publicUrl") })}
        <a href={url} target="_blank" rel="noreferrer noopener" className="text-break">
          {url}
        </a>
        <CopyButton text={url} label={t("common.copy")} />
      </p>
      <p className="small text-body-secondary mb-0">{t("wot.publicUrlHelp")}</p>
    </div>
  );
}
