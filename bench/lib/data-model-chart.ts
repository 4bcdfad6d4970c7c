import { json, type RunningApi } from "./api.ts";

/** The data-model chart's model and its "on screen" (bench/data-model.ts, bench/tools/data-model-chart-turns.ts). */

const valueTypes = ["String", "Number", "Boolean", "Object", "Array"];

/**
 * `types` types; per type `propertiesPerType - 1` properties through the import route (one request per type) and one
 * Relationship to the next type (so that the chart draws 200 edges). Returns the type ids.
 */
export async function buildModel(
  api: RunningApi,
  ws: string,
  types: number,
  propertiesPerType: number,
  log: (...args: unknown[]) => void,
): Promise<string[]> {
  const base = `/api/workspace/${ws}`;
  const ids: string[] = [];
  const start = performance.now();
  for (let t = 0; t < types; t++) {
    const type = await json(
      api.call("POST", `${base}/types`, 201, { name: `Type${String(t).padStart(3, "0")}` }),
    );
    ids.push(type.id);
  }
  for (let t = 0; t < types; t++) {
    const props = Array.from({ length: propertiesPerType - 1 }, (_, p) => ({
      name: `t${t}p${p}`,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: valueTypes[p % valueTypes.length]!,
    }));
    await api.call("POST", `${base}/properties/import`, 201, { typeId: ids[t], properties: props });
    await api.call("POST", `${base}/properties`, 201, {
      name: `t${t}refNext`,
      hasType: ids[t],
      ngsiLdType: "Relationship",
      relationshipType: ids[(t + 1) % types],
    });
    if ((t + 1) % 50 === 0)
      log(`  ${t + 1}/${types} types' properties (${Math.round(performance.now() - start)} ms)`);
  }
  return ids;
}

/**
 * The chart on screen (page time from navigation start, or false): every type laid out (the chart
 * holds `count` nodes, placed) and the types in its view drawn. A chart of up to a hundred types
 * draws all of them; a larger one (read a part at a time, never zoomed out below legible text)
 * draws those in view, in the same commit as it takes them, and the rest as the view moves. A
 * console built before the chart said how many types it holds drew them all: all `count` drawn
 * (bench/tools/data-model-chart-turns.ts compares with such builds).
 */
export const onScreen = (count: number) => {
  const chart = document.querySelector<HTMLElement>(".data-model-chart[data-types]");
  const drawn = document.querySelectorAll(".data-model-chart .react-flow__node").length;
  if (!chart) return drawn >= count ? performance.now() : false;
  const laidOut = Number(chart.dataset.types) >= count;
  return laidOut && drawn >= (count <= 100 ? count : 1) ? performance.now() : false;
};
