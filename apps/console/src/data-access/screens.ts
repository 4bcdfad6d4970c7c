import { screen } from "../app/screens.tsx";

/** The Data access page's code loads with its route. */
export const DataAccessScreen = screen(() => import("./DataAccessPage.tsx"));
