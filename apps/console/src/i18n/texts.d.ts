/** The parts of the catalogues that vite.config.ts (`textAreas`) cuts out: see areas.ts. */
declare module "texts:*" {
  const texts: import("./areas.ts").Texts;
  export default texts;
}
