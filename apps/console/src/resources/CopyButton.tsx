import { useState } from "react";
import { Button } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";

/** Copies a text (a record's id) to the clipboard, and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="outline-secondary"
      size="sm"
      className="py-0 ms-2"
      aria-label={label}
      title={label}
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        })
      }
    >
      {copied ? t("common.copied") : t("common.copy")}
    </Button>
  );
}
