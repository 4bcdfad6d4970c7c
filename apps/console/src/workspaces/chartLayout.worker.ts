/// <reference lib="webworker" />
import { layout, type LayoutInput } from "./chartLayout.ts";

/** The chart's layout off the page's thread (chartLayoutWorker.ts): an input in, its layout out. */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.addEventListener("message", (event: MessageEvent<{ id: number; input: LayoutInput }>) => {
  const { id, input } = event.data;
  try {
    scope.postMessage({ id, result: layout(input) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
