/// <reference lib="webworker" />
import type { Item } from "../resources/queries.ts";
import { layoutInput } from "./chartInput.ts";
import { layout } from "./chartLayout.ts";

/** The chart's layout off the page's thread (chartLayoutWorker.ts): the chart's records in, their layout out. */
export interface LayoutRecords {
  types: readonly Item[];
  properties: readonly Item[];
  dataServices?: readonly Item[];
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.addEventListener("message", (event: MessageEvent<{ id: number; records: LayoutRecords }>) => {
  const { id, records } = event.data;
  try {
    const input = layoutInput(records.types, records.properties, records.dataServices);
    scope.postMessage({ id, result: layout(input) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
