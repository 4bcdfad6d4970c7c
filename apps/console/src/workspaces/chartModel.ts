import { Position } from "@xyflow/react";
import type { Item } from "../resources/queries.ts";
import type { Direction } from "../data-services/directionOf.ts";
import { directionOf } from "../data-services/directionOf.ts";
import { groupColours, neutralColour } from "./groupColours.ts";
import { labelWidth, layout, nodeHeight, type LayoutResult, type Point } from "./chartLayout.ts";
import { chartParts, labelOf, servicesOf } from "./chartInput.ts";

export { neutralColour, type Point };
export { readInParts, targetsOf, layoutInput } from "./chartInput.ts";

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
 * types outside the model leave it: an outward arrow on their type, naming them. `laidOut`: the
 * layout of `layoutInput` of the same types, when it was done elsewhere (a worker).
 */
export function chartModel(
  types: readonly Item[],
  properties: readonly Item[],
  options: {
    hiddenGroups?: ReadonlySet<string>;
    dataServices?: readonly Item[];
  } = {},
  done?: LayoutResult,
): { nodes: ChartNode[]; edges: ChartEdge[]; bounds: Bounds } {
  const { links, outside, sizes, placed, input } = chartParts(types, properties, options.dataServices);
  const laidOut = done ?? layout(input);
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
        direction: directionOf(servicesOf(type, options.dataServices)),
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
