import { useSyncExternalStore } from "react";

/** The open workspaces shown as the second bar; kept across reloads. Filled by the workspaces screens. */
export interface OpenWorkspace {
  id: string;
  name: string;
}

const KEY = "orrery.openWorkspaces";
const listeners = new Set<() => void>();
let open: OpenWorkspace[] = load();

function load(): OpenWorkspace[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]") as OpenWorkspace[];
  } catch {
    return [];
  }
}

function save(next: OpenWorkspace[]) {
  open = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode: open workspaces last for this page only
  }
  listeners.forEach((l) => l());
}

export const openWorkspace = (ws: OpenWorkspace) => save([...open.filter((w) => w.id !== ws.id), ws]);
export const closeWorkspace = (id: string) => save(open.filter((w) => w.id !== id));

export function useOpenWorkspaces(): OpenWorkspace[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
