import { dataServices, type KindDefinition } from "@orrery/model";
import { ListPage } from "../resources/ListPage.tsx";
import { DirectionMarker, directionOf } from "../data-services/direction.tsx";

/** A kind's list page (its code loads with the route, screens.tsx). */
export default function KindIndexPage({ kind }: { kind: KindDefinition }) {
  return <ListPage kind={kind} cells={kind === dataServices ? dataServiceCells : undefined} />;
}

/** The data services list's direction column (spec section 2, Data services). */
const dataServiceCells = {
  direction: (item: Record<string, unknown>) => <DirectionMarker direction={directionOf([item])} />,
};
