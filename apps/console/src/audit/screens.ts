import { screen } from "../app/screens.tsx";

/** The Activity page's code loads with its route. */
export const ActivityScreen = screen(() => import("./ActivityPage.tsx"));
