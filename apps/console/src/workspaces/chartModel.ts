import { Position } from "@xyflow/react";
import type { Item } from "../resources/queries.ts";
import { directionOf, type Direction } from "./direction.tsx";

/** Colours of the data-model groups (as in the original console); a type without group stays grey. */
export const groupColours: Record<string, string> = {
  equipment: "#a55eea",
  "equipment-model": "#4b7bec",
  infrastructure: "#fc5c65",
  control: "#fd9644",
  "observation-data-collection": "#45aaf2",
};
export const neutralColour = "#b2bec3";
export const selectedColour = "#00b894";

export interface TypeNodeData extends Record<string, unknown> {
  name: string;
  icon?: string;
  colour: string;
  /** The data services of the type, as a marker after its name. */
  direction?: Direction;
}

export interface ChartNode {
  id: string;
  type: "dataType";
  position: { x: number; y: number };
  data: TypeNodeData;
  hidden: boolean;
  width: number;
  height: number;
  handles: Array<{ type: "source" | "target"; position: Position; x: number; y: number }>;
}

export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

const columns = 4;
const nodeHeight = 40;

/**
 * One node per type, at its saved position or, until someone drags it, on a grid (auto-layout
 * results are never saved, as in the original); one arrow per Relationship property (sub-properties
 * included), from the type that has it to the type it points to. Arrows to unknown types are dropped.
 */
export function chartModel(
  types: readonly Item[],
  properties: readonly Item[],
  options: {
    selectedTypeId?: string | null;
    hiddenGroups?: ReadonlySet<string>;
    dataServices?: readonly Item[];
  } = {},
): { nodes: ChartNode[]; edges: ChartEdge[] } {
  // A size known before the browser lays the node out, so that arrows are drawn at once and end
  // at the handles' real places (the label is centred in it).
  const widthOf = (type: Item) =>
    Math.round(
      Math.max(
        90,
        type.name.length * 9.5 + 32 + (type.icon ? 28 : 0) + (directionOf(servicesOf(type)) ? 24 : 0),
      ),
    );
  const servicesOf = (type: Item) => (options.dataServices ?? []).filter((s) => s.hasEntityType === type.id);
  // Grid columns as wide as the widest node, so that unplaced nodes never overlap.
  const column = Math.max(0, ...types.map(widthOf)) + 60;
  const nodes = types.map((type, i): ChartNode => {
    const width = widthOf(type);
    const saved = type.positionInChart as [number, number] | undefined;
    const group = type.dataModelGroup as string | undefined;
    return {
      id: type.id,
      type: "dataType",
      position: saved
        ? { x: saved[0], y: saved[1] }
        : { x: (i % columns) * column, y: Math.floor(i / columns) * 120 },
      data: {
        name: type.name,
        icon: type.icon as string | undefined,
        direction: directionOf(servicesOf(type)),
        colour:
          type.id === options.selectedTypeId
            ? selectedColour
            : ((group && groupColours[group]) ?? neutralColour),
      },
      hidden: !!group && !!options.hiddenGroups?.has(group),
      width,
      height: nodeHeight,
      handles: [
        { type: "target", position: Position.Top, x: width / 2, y: 0 },
        { type: "source", position: Position.Bottom, x: width / 2, y: nodeHeight },
      ],
    };
  });
  const known = new Set(types.map((t) => t.id));
  const edges = properties
    .filter(
      (p) =>
        p.ngsiLdType === "Relationship" &&
        known.has(p.hasType as string) &&
        known.has(p.relationshipType as string),
    )
    .map((p) => ({
      id: p.id,
      source: p.hasType as string,
      target: p.relationshipType as string,
      label: p.name,
    }));
  return { nodes, edges };
}
