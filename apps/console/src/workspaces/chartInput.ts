import { directionOf } from "../data-services/directionOf.ts";
import type { Item } from "../resources/queries.ts";

/**
 * What the data-model chart is made of before its layout, without React or React Flow: the chart
 * builds it (chartModel.ts), and so does the layout's worker from the chart's records.
 */

/**
 * Past a hundred types a chart is read a part at a time (it is never zoomed out below legible
 * text): its layout keeps dagre's first order, is done in a worker, and only the types in view are
 * drawn (bench/data-model: 200 types).
 */
export const readInParts = (types: number) => types > 100;

export interface Point {
  x: number;
  y: number;
}

/** What the layout needs: the types a user placed, every type's width, the links between types. */
export interface LayoutInput {
  placed: ReadonlyMap<string, Point>;
  sizes: ReadonlyMap<string, number>;
  links: ReadonlyArray<{ source: string; target: string; label: string }>;
}

export interface LayoutResult {
  positions: Map<string, Point>;
  routes: Map<string, { points: Point[]; labelAt: Point }>;
}

/** The types a node's relationships leave the model for, as its marker names them: "Device, Shelf". */
export const targetsOf = (outside: ReadonlyArray<{ target: string }>) =>
  [...new Set(outside.map((o) => o.target))].sort().join(", ");

/** The services of a type. */
export const servicesOf = (type: Item, dataServices: readonly Item[] = []) =>
  dataServices.filter((s) => s.hasEntityType === type.id);

export const labelOf = (names: string[]) => [...names].sort().join(", ");

/**
 * What the chart is made of before its layout: the links between types, the relationships that
 * leave the model, each type's width, the positions users saved, and from them the layout's input.
 */
export function chartParts(
  types: readonly Item[],
  properties: readonly Item[],
  dataServices?: readonly Item[],
) {
  // A size known before the browser lays the node out, so that arrows are drawn at once and end
  // at the handles' real places (the label is centred in it).
  const widthOf = (type: Item) =>
    Math.round(
      Math.max(
        90,
        type.name.length * 9.5 +
          32 +
          (type.icon ? 28 : 0) +
          (directionOf(servicesOf(type, dataServices)) ? 24 : 0) +
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
  const input: LayoutInput = {
    placed,
    sizes,
    links: [...links.values()].map(({ source, target, names }) => ({
      source,
      target,
      label: labelOf(names),
    })),
  };
  return { links, outside, sizes, placed, input };
}

/** The layout's input for these types, relationships and data services (to lay them out elsewhere). */
export const layoutInput = (
  types: readonly Item[],
  properties: readonly Item[],
  dataServices?: readonly Item[],
) => chartParts(types, properties, dataServices).input;
