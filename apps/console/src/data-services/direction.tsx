import { useTranslation } from "../i18n/index.ts";

/** Which way data services of a type go: demand and offer, demand only, offer only, or neither. */
export type Direction = "both" | "demand" | "offer" | "neither";

/** The original console's markers (spec section 2): up for offer, down for demand, a square for neither. */
const arrows: Record<Direction, string> = { both: "↑↓", demand: "↓", offer: "↑", neither: "■" };

/** The direction of some data services together; none when there are none. */
export function directionOf(services: readonly Record<string, unknown>[]): Direction | undefined {
  if (!services.length) return undefined;
  const demand = services.some((s) => s.isDemand === true);
  const offer = services.some((s) => s.isOffer === true);
  return demand && offer ? "both" : demand ? "demand" : offer ? "offer" : "neither";
}

/** The marker, with its meaning as an accessible name and a tooltip. */
export function DirectionMarker({ direction }: { direction: Direction | undefined }) {
  const { t } = useTranslation();
  if (!direction) return null;
  const meaning = t(`dataServices.direction.${direction}`);
  return (
    <span role="img" aria-label={meaning} title={meaning} data-direction={direction}>
      {arrows[direction]}
    </span>
  );
}
