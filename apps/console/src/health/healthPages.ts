/** The components the Status page asks for at a time. */
export const HEALTH_PAGE = 100;

/** The query of a page of components from `offset` (the start-up script asks the first one early). */
export const healthPageQuery = (offset: number) => ({ limit: String(HEALTH_PAGE), offset: String(offset) });

/** The Status page's first page of components. */
export const healthFirstPage = healthPageQuery(0);
