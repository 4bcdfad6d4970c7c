import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { contractDetails, contracts, properties, type KindDefinition } from "@orrery/model";
import { useItem, useList, type Item } from "../resources/queries.ts";
import type { FormRules } from "../resources/ResourceForm.tsx";

/** A type may scope a contract when it has a scope name (spec section 5). */
const hasScopeName = (type: Item) => typeof type.scopeName === "string" && type.scopeName !== "";

/**
 * The scope rules of the contract and contract detail forms (spec section 5): a contract's scope
 * type is a type with a scopeName. A contract detail's scope is set through "Set a scope", offered
 * only when its contract has a scope; its type has a scopeName and a relationship property whose
 * relationship type is the contract's scope type, and its entities are those referring through one
 * of these properties to the contract's scope entity.
 */
export function useContractRules(kind: KindDefinition): Partial<FormRules> {
  const { t } = useTranslation();
  const { contractId } = useParams();
  const isDetail = kind.kind === contractDetails.kind;
  const contract = useItem(contracts, contractId, isDetail).data?.data;
  const all = useList(properties, isDetail).data ?? [];
  if (kind.kind === contracts.kind) return { filters: { scopeType: hasScopeName } };
  if (!isDetail) return {};
  const scopeType = contract?.scopeType as string | undefined;
  const scopeEntity = contract?.scopeEntity as string | undefined;
  /** The relationship properties of a type that point to the contract's scope type. */
  const links = (typeId: unknown) =>
    all.filter(
      (p) =>
        p.hasType === typeId &&
        !p.hasProperty &&
        p.ngsiLdType === "Relationship" &&
        p.relationshipType === scopeType,
    );
  return {
    filters: { scopeType: (type: Item) => hasScopeName(type) && links(type.id).length > 0 },
    switched: {
      field: "scopeType",
      label: t("contractDetails.setScope"),
      available: !!scopeType && !!scopeEntity,
    },
    entityQuery: (field, values) => {
      if (field !== "scopeEntity" || !values.scopeType || !scopeEntity) return undefined;
      const quoted = JSON.stringify(scopeEntity);
      return (
        links(values.scopeType)
          .map((p) => `${String(p.name)}==${quoted}`)
          .join("|") || undefined
      );
    },
  };
}
