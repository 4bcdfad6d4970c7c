import { useParams } from "react-router";
import { types } from "@orrery/model";
import { ListPage } from "../resources/ListPage.tsx";
import { AutoDiscover } from "../workspaces/AutoDiscover.tsx";
import { GenerateDataModel } from "../workspaces/GenerateDataModel.tsx";

/** The types' list page, with the workspace's Auto-discover and Generate buttons (screens.tsx). */
export default function TypesIndexPage() {
  const { workspaceId = "" } = useParams();
  return (
    <ListPage
      kind={types}
      actions={
        <>
          <AutoDiscover workspaceId={workspaceId} />
          <GenerateDataModel workspaceId={workspaceId} />
        </>
      }
    />
  );
}
