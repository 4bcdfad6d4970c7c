/**
 * Colours of the data-model groups (as in the original console); a type without group stays grey.
 * Apart from the chart's model: the view's group filter shows them without loading the layout.
 */
export const groupColours: Record<string, string> = {
  equipment: "#a55eea",
  "equipment-model": "#4b7bec",
  infrastructure: "#fc5c65",
  control: "#fd9644",
  "observation-data-collection": "#45aaf2",
};
export const neutralColour = "#b2bec3";
export const selectedColour = "#00b894";
