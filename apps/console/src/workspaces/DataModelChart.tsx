import "@xyflow/react/dist/style.css";
import {
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  useNodesState,
  type Node,
  type NodeProps,
} from "@xyflow/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import DOMPurify from "dompurify";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { types } from "@orrery/model";
import { call } from "../api.ts";
import { recordKeys, type Item } from "../resources/queries.ts";
import { chartModel, neutralColour, type TypeNodeData } from "./chartModel.ts";
import { DirectionMarker } from "./direction.tsx";

/** A type's icon is markup a user typed: only SVG drawing survives (no script, handler or external reference). */
const sanitiseIcon = (markup: string) =>
  DOMPurify.sanitize(markup, { USE_PROFILES: { svg: true, svgFilters: true } });

function TypeNode({ data }: NodeProps<Node<TypeNodeData>>) {
  return (
    <div
      className="data-model-node"
      style={{ background: data.colour }}
      data-testid="chart-node"
      data-colour={data.colour}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="invisible" />
      <span className="text-nowrap">{data.name}</span>
      {data.direction && (
        <span className="ms-1">
          <DirectionMarker direction={data.direction} />
        </span>
      )}
      {data.icon && (
        <span className="data-model-icon" dangerouslySetInnerHTML={{ __html: sanitiseIcon(data.icon) }} />
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="invisible" />
    </div>
  );
}

const nodeTypes = { dataType: TypeNode };

/** Saves where a type was dropped, then refreshes the types so that a reload finds it there. */
export function useSavePosition(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ typeId, position }: { typeId: string; position: [number, number] }) =>
      call(`/workspace/${workspaceId}/types/${typeId}/position-in-chart`, { method: "PUT", body: position }),
    // A failed save only loses a position: no dialog, the node goes back on the next refetch.
    onSettled: () => client.invalidateQueries({ queryKey: recordKeys.list(types.kind, workspaceId) }),
  });
}

/** The drag-end handler: one node dropped, its position rounded to whole pixels. */
export const dragStopHandler =
  (save: (move: { typeId: string; position: [number, number] }) => void) =>
  (_event: unknown, node: Pick<Node, "id" | "position">, nodes: readonly unknown[] = [node]) => {
    if (nodes.length !== 1) return;
    save({ typeId: node.id, position: [Math.round(node.position.x), Math.round(node.position.y)] });
  };

export interface DataModelChartProps {
  workspaceId: string;
  types: readonly Item[];
  dataServices?: readonly Item[];
  properties: readonly Item[];
  selectedTypeId?: string | null;
  hiddenGroups: ReadonlySet<string>;
  /** Without permission to move a type, its node stays where it is. */
  canMove: (typeId: string) => boolean;
  onSelect: (typeId: string) => void;
  onOpen: (typeId: string) => void;
}

/** The data-model chart of a workspace (loaded with its view: @xyflow/react stays off other pages). */
export default function DataModelChart(props: DataModelChartProps) {
  const { t } = useTranslation();
  const { canMove } = props;
  const model = useMemo(() => {
    const { nodes, edges } = chartModel(props.types, props.properties, {
      selectedTypeId: props.selectedTypeId,
      hiddenGroups: props.hiddenGroups,
      dataServices: props.dataServices,
    });
    return { nodes: nodes.map((n) => ({ ...n, draggable: canMove(n.id) })), edges };
    // canMove is a new function on every render of the view; permissions do not change while it is shown.
  }, [props.types, props.properties, props.selectedTypeId, props.hiddenGroups, props.dataServices]);
  const [nodes, setNodes, onNodesChange] = useNodesState<Node<TypeNodeData>>(model.nodes);
  useEffect(() => setNodes(model.nodes), [model.nodes, setNodes]);
  const edges = model.edges.map((e) => ({
    ...e,
    markerEnd: { type: MarkerType.ArrowClosed, color: neutralColour },
    style: { stroke: neutralColour, strokeWidth: 2 },
  }));
  const save = useSavePosition(props.workspaceId);
  return (
    <div className="data-model-chart" role="figure" aria-label={t("workspace.chart")}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onNodeDragStop={dragStopHandler(save.mutate)}
        onNodeClick={(_e, node) => props.onSelect(node.id)}
        onNodeDoubleClick={(_e, node) => props.onOpen(node.id)}
        nodesConnectable={false}
        elementsSelectable={false}
        zoomOnDoubleClick={false}
        fitView
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
