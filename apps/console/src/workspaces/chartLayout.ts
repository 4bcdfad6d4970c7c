import dagre, { type graphlib } from "@dagrejs/dagre";
import { readInParts, type LayoutInput, type LayoutResult, type Point } from "./chartInput.ts";

export type { LayoutInput, LayoutResult, Point };

// The layered layout of the data-model chart (dagre), apart from the chart itself: it runs in a
// worker for a large chart (chartLayout.worker.ts), without React or React Flow.

export const nodeHeight = 40;

/** Roughly how wide a label is drawn (13 px text), for the layout to keep labels apart. */
export const labelWidth = (label: string) => label.length * 7 + 12;

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
export function layout({ placed, sizes, links }: LayoutInput): LayoutResult {
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
