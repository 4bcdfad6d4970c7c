import type { TFunction } from "../i18n/index.ts";

/** Each action's words (the keys written out, so that the catalogue test sees them used). */
const actionKeys: Record<string, string> = {
  create: "audit.actions.create",
  update: "audit.actions.update",
  delete: "audit.actions.delete",
  "entity.create": "audit.actions.entityCreate",
  "entity.update": "audit.actions.entityUpdate",
  "entity.delete": "audit.actions.entityDelete",
  "attribute.update": "audit.actions.attributeUpdate",
  "attribute.delete": "audit.actions.attributeDelete",
  import: "audit.actions.import",
  "history.add": "audit.actions.historyAdd",
  "history.update": "audit.actions.historyUpdate",
  "history.delete": "audit.actions.historyDelete",
  "history.import": "audit.actions.historyImport",
  "wot.execute": "audit.actions.wotExecute",
  "sheet.write": "audit.actions.sheetWrite",
  "role.assign": "audit.actions.roleAssign",
  "role.remove": "audit.actions.roleRemove",
  synchronize: "audit.actions.synchronize",
  "dataModel.generate": "audit.actions.dataModelGenerate",
  signIn: "audit.actions.signIn",
  signOut: "audit.actions.signOut",
  refused: "audit.actions.refused",
};

const outcomeKeys: Record<string, string> = {
  success: "audit.outcomes.success",
  failure: "audit.outcomes.failure",
  refused: "audit.outcomes.refused",
};

export const actionLabel = (t: TFunction, action: string) =>
  actionKeys[action] ? t(actionKeys[action]) : action;
export const outcomeLabel = (t: TFunction, outcome: string) =>
  outcomeKeys[outcome] ? t(outcomeKeys[outcome]) : outcome;

/** What a peer holds, recorded under its own name (the keys written out, for the catalogue test). */
const peerKindKeys: Record<string, string> = {
  entities: "audit.kinds.entities",
  users: "audit.kinds.users",
  subscriptions: "audit.kinds.subscriptions",
  registrations: "audit.kinds.registrations",
  "delegation-policies": "audit.kinds.delegationPolicies",
  "google-sheets": "audit.kinds.googleSheets",
};

/** A kind's name in the console's words: its plural, or what the API calls it (entities, users). */
export function kindLabel(t: TFunction, kind: string): string {
  if (!kind) return "";
  if (peerKindKeys[kind]) return t(peerKindKeys[kind]);
  return t(`kinds.${kind}.one`, { defaultValue: kind });
}

/** When, in the console's language: date and time to the second. */
export const when = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language, { dateStyle: "medium", timeStyle: "medium" });
