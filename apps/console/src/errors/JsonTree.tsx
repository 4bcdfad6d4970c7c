import { lazy, Suspense, type JSX } from "react";
import { useTranslation } from "../i18n/index.ts";

const JsonView = lazy(() => import("@uiw/react-json-view"));

/**
 * A JSON value as an expandable tree (spec: expanded to depth 10): strings whole, never cut, and
 * the size of objects and arrays in the reader's language. Its code arrives when one is first shown.
 */
export function JsonTree({ value, depth = 10 }: { value: object; depth?: number }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<pre className="small mb-0">{JSON.stringify(value, null, 4)}</pre>}>
      <JsonView
        value={value}
        collapsed={depth}
        displayDataTypes={false}
        enableClipboard={false}
        shortenTextAfterLength={0}
        style={{ background: "transparent" }}
        components={{
          // Strings whole at every depth: shortenTextAfterLength reaches only the first level (1.12).
          value: ({ type, content, className, style }) =>
            (type === "string" ? (
              <span className={className} style={style}>
                {content}
              </span>
            ) : undefined) as JSX.Element,
          countInfo: ({ count }) => (
            <span className="ms-1 small text-body-secondary">{t("common.items", { count })}</span>
          ),
        }}
      />
    </Suspense>
  );
}
