import type { TFunction } from "../i18n/index.ts";
import type { Field } from "@orrery/model";

/**
 * A field's label: its name's, or the key its definition gives. Apart from the form's inputs, so
 * that lists and show pages do not bring react-hook-form to the first screen.
 */
export const labelOf = (t: TFunction, field: Field) => t(`fields.${field.label ?? field.name}`);
