/** What the audit trail records (apps/api/src/audit): the API writes them, the console filters by them. */
export const auditActions = [
  "create",
  "update",
  "delete",
  "entity.create",
  "entity.update",
  "entity.delete",
  "attribute.update",
  "attribute.delete",
  "import",
  "role.assign",
  "role.remove",
  "synchronize",
  "dataModel.generate",
  "signIn",
  "signOut",
  "refused",
] as const;
export type AuditAction = (typeof auditActions)[number];
