import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import {
  dataActions,
  dataServices,
  properties,
  woTProperties,
  woTThingDescriptions,
  type KindDefinition,
} from "@orrery/model";
import { useItem, useList, type Item } from "../resources/queries.ts";
import type { FormRules } from "../resources/ResourceForm.tsx";

/** The data action marking a data service that notifies (spec section 9). */
const NOTIFICATION = ":Notification";

/**
 * The choices of the Web of Things forms (spec section 5), narrowed by the thing description in
 * the route: a WoT property's property is one of the thing description's type; an event's data
 * service has a ":Notification" action and its WoT property is one of the thing description's whose
 * property the service exposes, its capacity value defaulting to that WoT property's; an operation's
 * action and a control's WoT property belong to the thing description.
 */
export function useWotRules(kind: KindDefinition): Partial<FormRules> {
  const { t } = useTranslation();
  const { woTThingDescriptionId } = useParams();
  const uses = (...kinds: string[]) => kinds.includes(kind.kind);
  const td = useItem(woTThingDescriptions, woTThingDescriptionId, uses("wot-properties")).data?.data;
  const wotProperties = useList(woTProperties, uses("wot-events", "routing-operation-controls")).data ?? [];
  const services = useList(dataServices, uses("wot-events")).data ?? [];
  const actions = useList(dataActions, uses("wot-events")).data ?? [];
  const allProperties = useList(properties, uses("wot-properties", "wot-events")).data ?? [];
  const ofTd = (item: Item) => item.hasWoTThingDescription === woTThingDescriptionId;
  switch (kind.kind) {
    case "wot-properties":
      return { filters: { hasProperty: (p) => !p.hasProperty && p.hasType === td?.hasType } };
    case "wot-events": {
      const notifying = new Set(actions.filter((a) => a.name.includes(NOTIFICATION)).map((a) => a.id));
      const wotProperty = (values: Record<string, unknown>) =>
        wotProperties.find((w) => w.id === values.hasWoTProperty);
      return {
        filters: {
          hasDataService: (s) =>
            ((s.hasDataActions as string[] | undefined) ?? []).some((a) => notifying.has(a)),
          hasWoTProperty: (w, values) => {
            const service = services.find((s) => s.id === values.hasDataService);
            return (
              ofTd(w) &&
              ((service?.hasProperties as string[] | undefined) ?? []).includes(w.hasProperty as string)
            );
          },
        },
        defaults: (values) => ({ capacityValue: wotProperty(values)?.capacityValue }),
        hints: (values): Record<string, string> => {
          const chosen = wotProperty(values);
          const property = allProperties.find((p) => p.id === chosen?.hasProperty);
          return chosen
            ? {
                capacityValue: t("wot.capacityFrom", {
                  type: t(`options.capacityType.${String(chosen.capacityType)}`),
                  property: property?.name ?? chosen.name,
                }),
              }
            : {};
        },
      };
    }
    case "routing-operations":
      return { filters: { hasWoTAction: ofTd } };
    case "routing-operation-controls":
      return { filters: { hasWoTProperty: ofTd } };
    default:
      return {};
  }
}
