import { z } from "zod";

/**
 * An ISO 8601 instant the database can compare: year 0000 is valid ISO (and a JavaScript date) but
 * neither PostgreSQL nor PGlite has it (1 BC comes before 1 AD), so it is refused as the request's fault (its time in UTC: 0001-01-01T00:30+01:00 is in year 0000 too).
 */
const instant = z.iso
  .datetime({ offset: true })
  .refine((text) => new Date(text).getUTCFullYear() >= 1, { params: { yearZero: true } });

/** The query fields of a log read newest first (the audit trail, the data access decisions): a time range and a cursor. */
export const logPageFields = {
  from: instant.optional(),
  to: instant.optional(),
  /** The last id of the page before: the next page holds older entries. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
};
