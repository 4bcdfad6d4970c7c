import { useState } from "react";
import { Button, ButtonGroup, Spinner } from "react-bootstrap";

type Format = "csv" | "json";

/** The query string of a log's page (Activity, Data access): empty filters left out, times as ISO instants. */
export function logQuery(filters: object, cursor?: string, limit = 50): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters) as Array<[string, string | undefined]>) {
    if (!value) continue;
    query.set(key, key === "from" || key === "to" ? new Date(value).toISOString() : value);
  }
  if (cursor) query.set("cursor", cursor);
  query.set("limit", String(limit));
  return query.toString();
}

/** Saves a text as a file through a Blob link. */
export function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The export of a log's filtered list (Activity, Data access): every page fetched, saved as CSV or JSON. */
export function useLogExport<T>(
  name: string,
  fetchAll: () => Promise<T[]>,
  csv: (items: T[]) => Promise<string>,
) {
  const [exporting, setExporting] = useState<Format | undefined>();
  const [error, setError] = useState<unknown>();
  const exportAs = async (format: Format) => {
    setExporting(format);
    setError(undefined);
    try {
      const items = await fetchAll();
      if (format === "csv") download(`${name}.csv`, await csv(items), "text/csv");
      else download(`${name}.json`, JSON.stringify(items, null, 2), "application/json");
    } catch (err) {
      setError(err);
    } finally {
      setExporting(undefined);
    }
  };
  return { exporting, error, exportAs };
}

/** The words of a log's toolbar, in the log's own texts. */
export interface LogToolbarTexts {
  export: string;
  exportCsv: string;
  exportJson: string;
  paging: string;
  newer: string;
  older: string;
}

/** A log's export buttons and its pages (newer: back one page; older: the next cursor). */
export function LogToolbar({
  texts,
  exporting,
  onExport,
  onNewer,
  onOlder,
}: {
  texts: LogToolbarTexts;
  exporting?: Format;
  onExport(format: Format): void;
  onNewer?: () => void;
  onOlder?: () => void;
}) {
  const exportButton = (format: Format, label: string) => (
    <Button variant="outline-secondary" onClick={() => onExport(format)} disabled={!!exporting}>
      {exporting === format && <Spinner animation="border" size="sm" />} {label}
    </Button>
  );
  return (
    <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-2">
      <ButtonGroup size="sm" aria-label={texts.export}>
        {exportButton("csv", texts.exportCsv)}
        {exportButton("json", texts.exportJson)}
      </ButtonGroup>
      <ButtonGroup size="sm" aria-label={texts.paging}>
        <Button variant="outline-primary" disabled={!onNewer} onClick={onNewer}>
          {texts.newer}
        </Button>
        <Button variant="outline-primary" disabled={!onOlder} onClick={onOlder}>
          {texts.older}
        </Button>
      </ButtonGroup>
    </div>
  );
}
