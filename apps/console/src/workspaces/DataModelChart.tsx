import "@xyflow/react/dist/style.css";
import {
  BaseEdge,
  Controls,
  getBezierPath,
  getSmoothStepPath,
  Handle,
  MarkerType,
  ReactFlow,
  useNodesState,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeProps,
} from "@xyflow/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import DOMPurify from "dompurify";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Spinner } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { types } from "@orrery/model";
import { call } from "../api.ts";
import { recordKeys, type Item } from "../resources/queries.ts";
import {
  chartModel,
  neutralColour,
  readInParts,
  targetsOf,
  type Bounds,
  type ChartEdge,
  type ChartNode,
  type Point,
  type TypeNodeData,
} from "./chartModel.ts";
import { selectedColour } from "./groupColours.ts";
import { useLayoutApart } from "./chartLayoutWorker.ts";
import { DirectionMarker } from "../data-services/direction.tsx";

/** A type's icon is markup a user typed: only SVG drawing survives (no script, handler or external reference). */
const sanitiseIcon = (markup: string) =>
  DOMPurify.sanitize(markup, { USE_PROFILES: { svg: true, svgFilters: true } });

/**
 * A type: a button of the keyboard's tab order (Enter or Space selects it, as a click does), with a
 * handle on each side its arrows leave or enter by (the sides that face each other).
 */
function TypeNode({ id, data }: NodeProps<Node<ChartNodeData>>) {
  return (
    <div
      className="data-model-node"
      style={{ background: data.colour }}
      data-testid="chart-node"
      data-colour={data.colour}
      role="button"
      tabIndex={0}
      aria-pressed={data.selected}
      aria-label={data.label}
      onKeyDown={(event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        data.onSelect(id);
      }}
    >
      {data.handles.map((handle) => (
        <Handle
          key={handle.id}
          id={handle.id}
          type={handle.type}
          position={handle.position}
          isConnectable={false}
          className="invisible"
        />
      ))}
      <span className="text-nowrap">{data.name}</span>
      {data.direction && (
        <span className="ms-1">
          <DirectionMarker direction={data.direction} />
        </span>
      )}
      {data.icon && (
        <span className="data-model-icon" dangerouslySetInnerHTML={{ __html: sanitiseIcon(data.icon) }} />
      )}
      {data.outside && (
        <span className="small text-nowrap" data-testid="chart-outside" title={data.outsideTitle}>
          ↗ {targetsOf(data.outside)}
        </span>
      )}
    </div>
  );
}

const nodeTypes = { dataType: TypeNode };

/**
 * The first view: the whole chart, labels included, centred; never zoomed out below legibility
 * (a large model is panned instead) nor blown up.
 */
export function fitted(bounds: Bounds, element: Pick<HTMLElement, "clientWidth" | "clientHeight"> | null) {
  const width = element?.clientWidth || 500;
  const height = element?.clientHeight || 500;
  const fit = Math.min(width / (bounds.width * 1.15 || 1), height / (bounds.height * 1.15 || 1));
  const zoom = Math.min(1.2, Math.max(0.65, fit));
  return {
    x: width / 2 - (bounds.x + bounds.width / 2) * zoom,
    y: height / 2 - (bounds.y + bounds.height / 2) * zoom,
    zoom,
  };
}

/** A smooth curve through the points (Catmull-Rom as cubic Béziers). */
export function curveThrough(points: readonly Point[]): string {
  const at = (i: number) => points[Math.max(0, Math.min(points.length - 1, i))]!;
  let path = `M ${at(0).x},${at(0).y}`;
  for (let i = 0; i < points.length - 1; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    const c1 = { x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6 };
    const c2 = { x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6 };
    path += ` C ${c1.x},${c1.y} ${c2.x},${c2.y} ${p2.x},${p2.y}`;
  }
  return path;
}

/**
 * A relationship's arrow: along the layout's route with its label where the layout left room for
 * it, from handle to handle; a curve between types a user placed; steps round a type's own loop.
 */
function RelationshipEdge(props: EdgeProps<Edge<ChartEdge["data"]>>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data } = props;
  const ends = { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition };
  const route = data?.points;
  const [path, labelX, labelY] =
    route && route.length > 1 && data?.labelAt
      ? [
          curveThrough([{ x: sourceX, y: sourceY }, ...route.slice(1, -1), { x: targetX, y: targetY }]),
          data.labelAt.x,
          data.labelAt.y,
        ]
      : props.source === props.target
        ? getSmoothStepPath(ends)
        : getBezierPath(ends);
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} style={props.style} />
      {/* Drawn as it is, on a halo of the page's colour (legible where arrows cross): React Flow's own
          label measures itself and draws again, per edge. */}
      <text
        x={labelX}
        y={labelY}
        className="data-model-edge-label"
        textAnchor="middle"
        dominantBaseline="central"
      >
        {props.label}
      </text>
    </>
  );
}

const edgeTypes = { relationship: RelationshipEdge };

type ChartNodeData = TypeNodeData & {
  /** Its texts, translated once by the chart: a translation hook in each of 200 nodes costs. */
  label: string;
  outsideTitle?: string;
  selected: boolean;
  onSelect: (typeId: string) => void;
  /** The handles its arrows use: a node draws only those (eight on each of 200 types cost). */
  handles: ChartNode["handles"];
};

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
  // A large chart is laid out in a worker (begun with the view's code, on a start at its address).
  const apart = useLayoutApart(props.types, props.properties, props.dataServices);
  const current = useMemo(() => {
    if (!apart) return undefined;
    const { nodes, edges, bounds } = chartModel(
      props.types,
      props.properties,
      { hiddenGroups: props.hiddenGroups, dataServices: props.dataServices },
      apart === "here" ? undefined : apart,
    );
    const used = new Set(
      edges.flatMap((e) => [`${e.source} ${e.sourceHandle}`, `${e.target} ${e.targetHandle}`]),
    );
    return {
      bounds,
      nodes: nodes.map((n) => {
        const handles = n.handles.filter((h) => used.has(`${n.id} ${h.id}`));
        return {
          ...n,
          handles,
          data: { ...n.data, handles, onSelect: props.onSelect },
        };
      }),
      edges: edges.map((e) => ({
        ...e,
        type: "relationship",
        markerEnd: { type: MarkerType.ArrowClosed, color: neutralColour },
        style: { stroke: neutralColour, strokeWidth: 2 },
      })),
    };
  }, [apart, props.types, props.properties, props.hiddenGroups, props.dataServices]);
  // While a changed large chart is laid out again (a type moved, added), the chart as it was stays.
  const previous = useRef(current);
  if (current) previous.current = current;
  const laidOut = current ?? previous.current;
  // Which types may be moved, apart from the layout: the permissions may arrive after the chart's
  // data, and the layout does not change with them. canMove is a new function on every render of
  // the view: what it allows is what counts. The nodes' texts too, in the reader's language, and
  // the selected type (choosing one only changes its colour: the layout is not done again).
  const movable = props.types.map((type) => (canMove(type.id) ? 1 : 0)).join("");
  const { selectedTypeId } = props;
  const model = useMemo(
    () =>
      laidOut && {
        ...laidOut,
        nodes: laidOut.nodes.map((n): Node<ChartNodeData> => {
          const { outside } = n.data;
          const relationships = outside?.map((o) => `${o.property} → ${o.target}`).join(", ");
          return {
            ...n,
            draggable: canMove(n.id),
            data: {
              ...n.data,
              selected: n.id === selectedTypeId,
              colour: n.id === selectedTypeId ? selectedColour : n.data.colour,
              label: t("workspace.chartNode", { name: n.data.name }),
              outsideTitle: outside && t("workspace.outsideModel", { relationships }),
            },
          };
        }),
      },
    [laidOut, movable, selectedTypeId, t],
  );
  const host = useRef<HTMLDivElement>(null);
  // The chart's size, read before it is drawn: React Flow starts at the first view (fitted to it)
  // and knows which types are in it, instead of drawing every type at its default view first and
  // again once it has measured itself.
  const [size, setSize] = useState<{ clientWidth: number; clientHeight: number }>();
  useLayoutEffect(() => {
    const element = host.current;
    setSize({ clientWidth: element?.clientWidth || 500, clientHeight: element?.clientHeight || 500 });
  }, []);
  return (
    <div
      className="data-model-chart"
      role="figure"
      aria-label={t("workspace.chart")}
      ref={host}
      // How many types the chart holds, laid out (bench/data-model: a large chart draws those in view).
      data-types={size && model ? model.nodes.length : undefined}
    >
      {size && model ? (
        <Flow {...props} model={model} size={size} />
      ) : (
        <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
      )}
    </div>
  );
}

/** React Flow with the chart's nodes (kept as they are dragged) and arrows, from its first view. */
function Flow({
  model,
  size,
  ...props
}: DataModelChartProps & {
  model: { nodes: Node<ChartNodeData>[]; edges: Edge<ChartEdge["data"]>[]; bounds: Bounds };
  size: { clientWidth: number; clientHeight: number };
}) {
  const { t } = useTranslation();
  const [nodes, setNodes, onNodesChange] = useNodesState<Node<ChartNodeData>>(model.nodes);
  useEffect(() => setNodes(model.nodes), [model.nodes, setNodes]);
  const save = useSavePosition(props.workspaceId);
  return (
    <ReactFlow
      width={size.clientWidth}
      height={size.clientHeight}
      defaultViewport={fitted(model.bounds, size)}
      // A large chart draws the types in view only (200 types: 8 on a laptop's screen); the
      // others as the view moves to them. "Types as a list" gives every type to the keyboard.
      onlyRenderVisibleElements={readInParts(nodes.length)}
      nodes={nodes}
      edges={model.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      onNodeDragStop={dragStopHandler(save.mutate)}
      onNodeClick={(_e, node) => props.onSelect(node.id)}
      onNodeDoubleClick={(_e, node) => props.onOpen(node.id)}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      zoomOnDoubleClick={false}
      fitViewOptions={{ minZoom: 0.65, maxZoom: 1.2, padding: 0.2 }}
      minZoom={0.1}
      proOptions={{ hideAttribution: true }}
      // The chart's own controls and descriptions, in the reader's language.
      ariaLabelConfig={{
        "controls.ariaLabel": t("workspace.chartControls"),
        "controls.zoomIn.ariaLabel": t("workspace.zoomIn"),
        "controls.zoomOut.ariaLabel": t("workspace.zoomOut"),
        "controls.fitView.ariaLabel": t("workspace.fitView"),
        "node.a11yDescription.default": t("workspace.nodeHelp"),
        "node.a11yDescription.keyboardDisabled": t("workspace.nodeHelp"),
        "edge.a11yDescription.default": t("workspace.edgeHelp"),
      }}
    >
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
