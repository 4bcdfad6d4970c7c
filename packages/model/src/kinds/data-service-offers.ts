import { defineKind } from "../kind.ts";
import { reference } from "../fields.ts";

/** Where a data service is offered: a description and the address of the offering. */
export const dataServiceOffers = defineKind({
  kind: "data-service-offers",
  urnType: "DataServiceOffer",
  routeName: "dataServiceOffers",
  scope: "workspace",
  listedWhole: true,
  columns: ["url"],
  fields: [
    { name: "description", input: "textarea", maxLength: 10_000, required: true },
    { name: "url", input: "url", required: true },
    reference("hasDataService", "data-services", { required: true }),
  ],
});
