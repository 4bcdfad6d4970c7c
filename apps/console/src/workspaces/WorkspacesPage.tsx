import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "react-bootstrap";
import { useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { apiPath, properties, types, workspaces } from "@orrery/model";
import { get } from "../api.ts";
import { useCan } from "../permissions.ts";
import { ListPage } from "../resources/ListPage.tsx";
import { recordKeys, type Item } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { contextFileUrl } from "./GenerateDataModel.tsx";
import { closeWorkspace, openWorkspace, useOpenWorkspaces } from "./openWorkspaces.ts";
import { Siop2Login, useSiop2 } from "../trust/Siop2Login.tsx";

/**
 * Open (→) or close (✕). Opening loads what the workspace view needs (types and properties, the
 * kinds that exist so far), marks the workspace open in the second bar and shows its view; closing
 * only takes it off the bar. A workspace behind a VC verifier is opened by its SIOP-2 login (QR).
 */
function OpenToggle({ workspace }: { workspace: Item }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const can = useCan();
  const [opening, setOpening] = useState(false);
  const isOpen = useOpenWorkspaces().some((w) => w.id === workspace.id);
  const siop2 = useSiop2(workspace);
  const open = async () => {
    setOpening(true);
    // A refused or failing list shows its error in the view; opening goes on.
    await Promise.allSettled(
      [types, properties]
        .filter((kind) => can.index(kind, workspace.id))
        .map((kind) =>
          client.prefetchQuery({
            queryKey: recordKeys.list(kind.kind, workspace.id),
            queryFn: () => get<Item[]>(apiPath(kind, workspace.id)),
          }),
        ),
    );
    openWorkspace({ id: workspace.id, name: workspace.name });
    navigate(routeTo("workspace", { workspaceId: workspace.id }));
  };
  return isOpen ? (
    <Button
      size="sm"
      variant="outline-secondary"
      onClick={() => closeWorkspace(workspace.id)}
      aria-label={t("workspaces.close", { name: workspace.name })}
      title={t("workspaces.close", { name: workspace.name })}
    >
      ✕
    </Button>
  ) : siop2 ? (
    <Siop2Login workspace={workspace} onLoggedIn={() => void open()} />
  ) : (
    <Button
      size="sm"
      variant="outline-primary"
      onClick={open}
      disabled={opening}
      aria-label={t("workspaces.open", { name: workspace.name })}
      title={t("workspaces.open", { name: workspace.name })}
    >
      →
    </Button>
  );
}

/** workspaces.index: the generic list with the open/close toggle and the version linking to the context file. */
export function WorkspacesPage() {
  const { t } = useTranslation();
  return (
    <ListPage
      kind={workspaces}
      leading={{ label: t("workspaces.toggle"), cell: (ws) => <OpenToggle workspace={ws} /> }}
      cells={{
        dataModelVersion: (ws) =>
          Number(ws.dataModelVersion ?? 0) > 0 ? (
            <a href={contextFileUrl(ws)} target="_blank" rel="noreferrer noopener">
              {String(ws.dataModelVersion)}
            </a>
          ) : (
            String(ws.dataModelVersion ?? 0)
          ),
      }}
    />
  );
}
