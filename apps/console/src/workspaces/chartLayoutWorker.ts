import type { QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { dataServices, properties, types } from "@orrery/model";
import { chartProperties, listQuery, type Item } from "../resources/queries.ts";
import { workspaceAt } from "../startup.ts";
import { readInParts, type LayoutResult } from "./chartInput.ts";
import type { LayoutRecords } from "./chartLayout.worker.ts";

/**
 * A large chart's layout in a worker (bench/data-model: 200 types, dagre takes 70 ms and more), so
 * that the page's thread builds the view meanwhile. One worker, started by the workspace view with
 * its data; where workers are missing (tests) or fail, the chart lays itself out on the page.
 * Without dagre or React Flow: the view's own code imports this.
 */
let worker: Worker | undefined | null;
/** The layouts asked of the worker; undefined: it failed, the chart lays itself out. */
const waiting = new Map<number, (r: LayoutResult | undefined) => void>();
let next = 0;

function layoutWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker =
      typeof Worker === "undefined"
        ? null
        : new Worker(new URL("./chartLayout.worker.ts", import.meta.url), { type: "module" });
  } catch {
    worker = null;
  }
  worker?.addEventListener("message", (event: MessageEvent<{ id: number; result?: LayoutResult }>) => {
    waiting.get(event.data.id)?.(event.data.result);
    waiting.delete(event.data.id);
  });
  // A worker that cannot start (its script refused): every chart lays itself out instead.
  worker?.addEventListener("error", () => {
    worker = null;
    for (const resolve of waiting.values()) resolve(undefined);
    waiting.clear();
  });
  return worker;
}

/** The layout of these records, done in the worker; undefined when there is none or it failed. */
export function layOutApart(records: LayoutRecords): Promise<LayoutResult | undefined> {
  const apart = layoutWorker();
  if (!apart) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    apart.postMessage({ id, records });
  });
}

interface Layout {
  types: readonly Item[];
  properties: readonly Item[];
  dataServices?: readonly Item[];
  /** The worker's answer, to come. */
  promise?: Promise<LayoutResult | undefined>;
  /** Once the worker answered ("here": it could not, the chart lays itself out). */
  result?: LayoutResult | "here";
}

const laidOutFor = (
  layout: Layout | undefined,
  types: readonly Item[],
  properties: readonly Item[],
  dataServices?: readonly Item[],
) =>
  layout && layout.types === types && layout.properties === properties && layout.dataServices === dataServices
    ? layout
    : undefined;

/** The layout of the chart the page opened at, begun as soon as its data is in the cache. */
let early: Layout | undefined;

/**
 * On a start at a workspace's address, the chart's data (asked for by startup.ts) is often there
 * before the view renders: a large chart's layout starts in the worker at once, while the page's
 * thread builds the view; the chart takes it when its data is the same.
 */
export function layOutEarly(client: QueryClient, pathname: string): void {
  const workspaceId = workspaceAt(pathname);
  if (!workspaceId || typeof Worker === "undefined") return;
  const keys = [
    listQuery(types, workspaceId).queryKey,
    listQuery(properties, workspaceId, chartProperties).queryKey,
    listQuery(dataServices, workspaceId).queryKey,
  ];
  const start = () => {
    const [typeList, propertyList, serviceList] = keys.map((key) => client.getQueryData<Item[]>(key));
    if (!typeList || !propertyList || !serviceList) return false;
    if (readInParts(typeList.length)) {
      const promise = layOutApart({ types: typeList, properties: propertyList, dataServices: serviceList });
      const layout: Layout = {
        types: typeList,
        properties: propertyList,
        dataServices: serviceList,
        promise,
      };
      void promise.then((r) => (layout.result = r ?? "here"));
      early = layout;
    }
    return true;
  };
  if (start()) return;
  const stop = client.getQueryCache().subscribe(() => {
    if (start()) stop();
  });
  // The view may open elsewhere: not watching the cache for ever.
  setTimeout(stop, 30_000);
}

/**
 * The layout of a large chart (more than a hundred types), done in the worker: undefined until it
 * is there. "here": a smaller chart, laid out as it renders (a few milliseconds).
 */
export function useLayoutApart(
  typeList: readonly Item[],
  propertyList: readonly Item[],
  serviceList?: readonly Item[],
): LayoutResult | "here" | undefined {
  const apart = readInParts(typeList.length) && typeof Worker !== "undefined";
  const [done, setDone] = useState<Layout>();
  const ready =
    laidOutFor(done, typeList, propertyList, serviceList) ??
    laidOutFor(early, typeList, propertyList, serviceList);
  const waiting = apart && !ready?.result;
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    const layout: Layout = { types: typeList, properties: propertyList, dataServices: serviceList };
    const result =
      laidOutFor(early, typeList, propertyList, serviceList)?.promise ??
      layOutApart({ types: typeList, properties: propertyList, dataServices: serviceList });
    void result.then((r) => live && setDone({ ...layout, result: r ?? "here" }));
    return () => {
      live = false;
    };
  }, [waiting, typeList, propertyList, serviceList]);
  return !apart ? "here" : ready?.result;
}
