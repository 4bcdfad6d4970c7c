import { useTranslation } from "../i18n/index.ts";
import type { Direction } from "./directionOf.ts";

// Pure, without React (the chart's layout worker reads it too).
export { directionOf, type Direction } from "./directionOf.ts";

/** The original console's markers (spec section 2): up for offer, down for demand, a square for neither. */
const arrows: Record<Direction, string> = { both: "↑↓", demand: "↓", offer: "↑", neither: "■" };

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
