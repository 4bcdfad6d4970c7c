/**
 * Cleanup actions (temp dirs, databases, the throwaway server), run newest first on success, on
 * failure, on a signal and when the time limit is reached.
 */
const actions: Array<() => Promise<void> | void> = [];

/** Registers an action; the returned function runs it now (once) and unregisters it. */
export function onCleanup(action: () => Promise<void> | void): () => Promise<void> {
  actions.push(action);
  return async () => {
    const at = actions.indexOf(action);
    if (at < 0) return;
    actions.splice(at, 1);
    await action();
  };
}

export async function cleanupAll(): Promise<void> {
  while (actions.length) {
    const action = actions.pop()!;
    try {
      await action();
    } catch (error) {
      console.error("cleanup:", error instanceof Error ? error.message : error);
    }
  }
}
