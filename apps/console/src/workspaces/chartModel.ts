import dagre, { type graphlib } from "@dagrejs/dagre";
import { Position } from "@xyflow/react";
import type { Item } from "../resources/queries.ts";
import { directionOf, type Direction } from "../data-services/direction.tsx";
import { groupColours, neutralColour } from "./groupColours.ts";

export { neutralColour };

export interface TypeNodeData extends Record<string, unknown> {
  name: string;
  icon?: string;
  colour: string;
  /** The data services of the type, as a marker after its name. */
  direction?: Direction;
  /** Its relationships to types outside the model (refDevice to a Device): drawn as leaving it, not as loops. */
  outside?: Array<{ property: string; target: string }>;
}

export interface ChartNode {
  id: string;
  type: "dataType";
  position: { x: number; y: number };
  data: TypeNodeData;
  hidden: boolean;
  width: number;
  height: number;
  handles: Array<{ id: string; type: "source" | "target"; position: Position; x: number; y: number }>;
}

export interface Point {
  x: number;
  y: number;
}

export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  targetHandle: string;
  label: string;
  /** The layout's route between two laid-out types, and where its label goes (clear of the others). */
  data: { points?: Point[]; labelAt?: Point };
}

/** The types a node's relationships leave the model for, as its marker names them: "Device, Shelf". */
export const targetsOf = (outside: ReadonlyArray<{ target: string }>) =>
  [...new Set(outside.map((o) => o.target))].sort().join(", ");

/**
 * Past a hundred types a chart is read a part at a time (it is never zoomed out below legible
 * text): its layout keeps dagre's first order, and only the types in view are drawn (bench/data-model:
 * 200 types).
 */
export const readInParts = (types: number) => types > 100;

/** Roughly how wide a label is drawn (13 px text), for the layout to keep labels apart. */
const labelWidth = (label: string) => label.length * 7 + 12;

const nodeHeight = 40;
const sides = [Position.Top, Position.Right, Position.Bottom, Position.Left] as const;

/** Where a side's handle sits on a node of this width (arrows start and end at the middle of a side). */
function handlesOf(width: number): ChartNode["handles"] {
  const at = {
    [Position.Top]: [width / 2, 0],
    [Position.Right]: [width, nodeHeight / 2],
    [Position.Bottom]: [width / 2, nodeHeight],
    [Position.Left]: [0, nodeHeight / 2],
  } as const;
  return sides.flatMap((side) =>
    (["source", "target"] as const).map((type) => ({
      id: `${type}-${side}`,
      type,
      position: side,
      x: at[side][0],
      y: at[side][1],
    })),
  );
}

/**
 * The order within each rank that dagre's `disableOptimalOrderHeuristic` keeps (its initOrder: a
 * depth-first walk from the nodes of the lowest ranks down their successors), without the graphs
 * of each rank that dagre builds first for the sweeps it then skips: on 200 types, half the layout.
 * The same positions (test/data-model-chart.test.tsx compares them with dagre's own).
 */
function firstOrder(graph: graphlib.Graph): void {
  const rank = (v: string) => (graph.node(v) as { rank: number }).rank;
  const layers: string[][] = [];
  const seen = new Set<string>();
  const visit = (v: string) => {
    if (seen.has(v)) return;
    seen.add(v);
    (layers[rank(v)] ??= []).push(v);
    for (const next of graph.successors(v) ?? []) visit(next);
  };
  for (const v of graph
    .nodes()
    .filter((v) => !graph.children(v).length)
    .sort((a, b) => rank(a) - rank(b)))
    visit(v);
  for (const layer of layers)
    layer?.forEach((v, order) => ((graph.node(v) as { order: number }).order = order));
}

/**
 * Positions for the types nobody placed: a layered layout (dagre) of the linked ones, relationships
 * pointing down from the type that has them to their target, then the unlinked ones in rows of
 * three under them (one long row would shrink the chart's text); all below the types a user placed.
 */
function layout(
  placed: ReadonlyMap<string, Point>,
  sizes: ReadonlyMap<string, number>,
  links: ReadonlyArray<{ source: string; target: string; label: string }>,
): { positions: Map<string, Point>; routes: Map<string, { points: Point[]; labelAt: Point }> } {
  const free = [...sizes.keys()].filter((id) => !placed.has(id));
  const between = links.filter(
    (l) => l.source !== l.target && !placed.has(l.source) && !placed.has(l.target),
  );
  const linked = free.filter((id) => between.some((l) => l.source === id || l.target === id));
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 50, edgesep: 20, ranksep: 60, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const id of linked) graph.setNode(id, { width: sizes.get(id)!, height: nodeHeight });
  // Labels take room in the layout, so that dagre sets them apart.
  for (const { source, target, label } of between)
    graph.setEdge(source, target, { width: labelWidth(label), height: 18, labelpos: "c" });
  // Past a hundred types, dagre's sweeps that reduce crossings cost more than the rest of the layout
  // (bench/data-model: 200 types), and such a chart is read a part at a time: its first order is kept.
  dagre.layout(graph, readInParts(linked.length) ? { customOrder: firstOrder } : {});
  const below = placed.size ? Math.max(...[...placed.values()].map((p) => p.y)) + nodeHeight + 110 : 0;
  const left = placed.size ? Math.min(...[...placed.values()].map((p) => p.x)) : 0;
  const out = new Map<string, { x: number; y: number }>();
  let bottom = below;
  for (const id of linked) {
    const { x, y } = graph.node(id);
    // dagre gives centres; the chart wants top-left corners.
    out.set(id, { x: left + x - sizes.get(id)! / 2, y: below + y - nodeHeight / 2 });
    bottom = Math.max(bottom, below + y + nodeHeight / 2 + 110);
  }
  const shift = (p: Point) => ({ x: left + p.x, y: below + p.y });
  const routes = new Map(
    between.map(({ source, target }) => {
      const edge = graph.edge(source, target) as { points: Point[]; x: number; y: number };
      return [`${source} ${target}`, { points: edge.points.map(shift), labelAt: shift(edge) }];
    }),
  );
  // The unlinked ones in a grid about as wide as high: the chart's card is narrow.
  const alone = free.filter((id) => !linked.includes(id));
  const columns = Math.max(1, Math.ceil(Math.sqrt(alone.length)));
  const column = Math.max(0, ...alone.map((id) => sizes.get(id)!)) + 60;
  alone.forEach((id, i) =>
    out.set(id, { x: left + (i % columns) * column, y: bottom + Math.floor(i / columns) * 100 }),
  );
  return { positions: out, routes };
}

/**
 * The sides an arrow leaves and enters by: downwards, upwards, or sideways between nodes on one
 * level; a type pointing to itself loops from its right side round to its top.
 */
function sidesBetween(from: { x: number; y: number }, to: { x: number; y: number }) {
  if (from === to) return [Position.Right, Position.Top];
  if (Math.abs(to.y - from.y) < nodeHeight)
    return to.x >= from.x ? [Position.Right, Position.Left] : [Position.Left, Position.Right];
  return to.y > from.y ? [Position.Bottom, Position.Top] : [Position.Top, Position.Bottom];
}

/**
 * One node per type, at its saved position or, until someone drags it, where the layered layout
 * puts it (layout results are never saved, as in the original); one arrow per pair of types linked
 * by Relationship properties (sub-properties included), labelled with their names, from the type
 * that has them to the type they point to, by the sides that face each other. Relationships to
 * types outside the model leave it: an outward arrow on their type, naming them.
 */
export function chartModel(
  types: readonly Item[],
  properties: readonly Item[],
  options: {
    hiddenGroups?: ReadonlySet<string>;
    dataServices?: readonly Item[];
  } = {},
): { nodes: ChartNode[]; edges: ChartEdge[]; bounds: Bounds } {
  const servicesOf = (type: Item) => (options.dataServices ?? []).filter((s) => s.hasEntityType === type.id);
  // A size known before the browser lays the node out, so that arrows are drawn at once and end
  // at the handles' real places (the label is centred in it).
  const widthOf = (type: Item) =>
    Math.round(
      Math.max(
        90,
        type.name.length * 9.5 +
          32 +
          (type.icon ? 28 : 0) +
          (directionOf(servicesOf(type)) ? 24 : 0) +
          (outside.has(type.id) ? 24 + targetsOf(outside.get(type.id)!).length * 8 : 0),
      ),
    );
  const known = new Set(types.map((t) => t.id));
  const links = new Map<string, { source: string; target: string; ids: string[]; names: string[] }>();
  const outside = new Map<string, Array<{ property: string; target: string }>>();
  for (const p of properties) {
    const source = p.hasType as string;
    const target = p.relationshipType as string;
    if (p.ngsiLdType !== "Relationship" || !known.has(source)) continue;
    // A target outside the model (auto-discovered, whose relationshipType had to name the type itself) leaves it.
    const beyond = p.relationshipTarget && target === source ? String(p.relationshipTarget) : undefined;
    if (beyond || !known.has(target)) {
      outside.set(source, [...(outside.get(source) ?? []), { property: p.name, target: beyond ?? "?" }]);
      continue;
    }
    const link = links.get(`${source} ${target}`) ?? { source, target, ids: [], names: [] };
    link.ids.push(p.id);
    link.names.push(p.name);
    links.set(`${source} ${target}`, link);
  }
  const sizes = new Map(types.map((type) => [type.id, widthOf(type)]));
  const placed = new Map(
    types.flatMap((type) => {
      const saved = type.positionInChart as [number, number] | undefined;
      return saved ? [[type.id, { x: saved[0], y: saved[1] }] as const] : [];
    }),
  );
  const labelOf = (names: string[]) => [...names].sort().join(", ");
  const laidOut = layout(
    placed,
    sizes,
    [...links.values()].map((l) => ({ ...l, label: labelOf(l.names) })),
  );
  const positionOf = (id: string) => placed.get(id) ?? laidOut.positions.get(id)!;
  const nodes = types.map((type): ChartNode => {
    const width = sizes.get(type.id)!;
    const group = type.dataModelGroup as string | undefined;
    return {
      id: type.id,
      type: "dataType",
      position: positionOf(type.id),
      data: {
        name: type.name,
        icon: type.icon as string | undefined,
        direction: directionOf(servicesOf(type)),
        ...(outside.has(type.id) ? { outside: outside.get(type.id) } : {}),
        colour: (group && groupColours[group]) ?? neutralColour,
      },
      hidden: !!group && !!options.hiddenGroups?.has(group),
      width,
      height: nodeHeight,
      handles: handlesOf(width),
    };
  });
  const edges = [...links.values()].map(({ source, target, ids, names }) => {
    const [out, into] = sidesBetween(positionOf(source), positionOf(target));
    return {
      id: ids.join(" "),
      source,
      target,
      sourceHandle: `source-${out}`,
      targetHandle: `target-${into}`,
      label: labelOf(names),
      data: laidOut.routes.get(`${source} ${target}`) ?? {},
    };
  });
  return { nodes, edges, bounds: boundsOf(nodes, edges) };
}

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the chart shows: its visible types and the labels of their arrows (a view fitted to the nodes alone cuts labels). */
function boundsOf(nodes: readonly ChartNode[], edges: readonly ChartEdge[]): Bounds {
  const boxes = [
    ...nodes.filter((n) => !n.hidden).map((n) => ({ ...n.position, width: n.width, height: n.height })),
    // A loop round its own type: out of the right side, over the top, its label above.
    ...edges.flatMap((e) => {
      const n =
        e.source === e.target ? nodes.find((node) => node.id === e.source && !node.hidden) : undefined;
      if (!n) return [];
      const half = labelWidth(e.label) / 2;
      return [
        {
          x: n.position.x + n.width / 2 - half,
          y: n.position.y - 30,
          width: n.width / 2 + half + 40,
          height: 30,
        },
      ];
    }),
    ...edges.flatMap((e) =>
      e.data.labelAt
        ? [
            {
              x: e.data.labelAt.x - labelWidth(e.label) / 2,
              y: e.data.labelAt.y - 9,
              width: labelWidth(e.label),
              height: 18,
            },
          ]
        : [],
    ),
  ];
  if (boxes.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
  };
}
