import { useTranslation } from "../i18n/index.ts";
import { workspaces } from "@orrery/model";
import { useParams } from "react-router";
import { useItem, type Item } from "../resources/queries.ts";
import { contextFileUrl } from "./GenerateDataModel.tsx";

/** On types.show: the type's published context file, once the workspace has generated a version. */
export function TypeContextLink({ type }: { type: Item }) {
  const { t } = useTranslation();
  const { workspaceId } = useParams();
  const workspace = useItem(workspaces, workspaceId).data?.data;
  if (!workspace || Number(workspace.dataModelVersion ?? 0) <= 0) return null;
  const url = contextFileUrl(workspace, type.name);
  return (
    <p className="mt-3 mb-0">
      {t("common.labelled", { label: t("dataModel.contextFile") })}
      <a href={url} target="_blank" rel="noreferrer noopener" className="text-break">
        {url}
      </a>
    </p>
  );
}
