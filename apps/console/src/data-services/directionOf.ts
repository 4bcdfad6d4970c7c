/** Which way data services of a type go: demand and offer, demand only, offer only, or neither. */
export type Direction = "both" | "demand" | "offer" | "neither";

/** The direction of some data services together; none when there are none. */
export function directionOf(services: readonly Record<string, unknown>[]): Direction | undefined {
  if (!services.length) return undefined;
  const demand = services.some((s) => s.isDemand === true);
  const offer = services.some((s) => s.isOffer === true);
  return demand && offer ? "both" : demand ? "demand" : offer ? "offer" : "neither";
}
