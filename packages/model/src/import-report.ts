/**
 * The API's answer to an entities import (or its dry run), as the console shows it. Row numbers
 * are the file's, header = row 1.
 */
export interface ImportReport {
  total: number;
  created: number;
  updated: number;
  rejected: Array<{ row: number; id?: string; reason: string }>;
  /** With dryRun: what each accepted row would do. */
  preview?: Array<{ row: number; id: string; action: "create" | "update" }>;
}
