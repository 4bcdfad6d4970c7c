import { screen } from "../app/screens.tsx";

/** The Status page's code loads with its route. */
export const StatusScreen = screen(() => import("./StatusPage.tsx"));
