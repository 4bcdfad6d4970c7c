/**
 * CSV injection (OWASP "CSV Injection"): a cell that starts with =, +, -, @, a tab or a carriage
 * return is run as a formula by a spreadsheet that opens the file (`=HYPERLINK(...)` in a name). Every
 * CSV Orrery writes passes this pattern to papaparse's `escapeFormulae`, which writes such a cell with
 * a `'` first: the spreadsheet shows it as text. A plain number (-5, +1.5e3) is no formula and is left
 * as it is; a cell already starting with quotes before such a character gets one more, so that an
 * import (`fromCsvCell`) gives back exactly what was exported.
 */
export const csvFormula = /^(?![-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$)'*[=+\-@\t\r]/;

/** papaparse's unparse options for a file a spreadsheet may open. */
export const csvExportOptions = { escapeFormulae: csvFormula } as const;

/** A cell of a CSV that Orrery exported, without the `'` its export put before a formula. */
export const fromCsvCell = (cell: string): string =>
  cell.startsWith("'") && csvFormula.test(cell) ? cell.slice(1) : cell;
