import { z } from "zod";

/** The query fields of a log read newest first (the audit trail, the data access decisions): a time range and a cursor. */
export const logPageFields = {
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** The last id of the page before: the next page holds older entries. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
};
