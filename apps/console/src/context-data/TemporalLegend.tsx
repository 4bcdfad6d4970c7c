import { useTranslation } from "../i18n/index.ts";

/**
 * The chart's legend, in the page (the chart's canvas says nothing to a screen reader): its line of
 * values, and, when some values have no observedAt, the hollow orange points that mark them,
 * placed at the time the broker wrote them. Drawn with the chart's colours (TemporalChart).
 */
export function TemporalLegend({ valueLabel, written }: { valueLabel: string; written: boolean }) {
  const { t } = useTranslation();
  return (
    <ul
      className="list-inline small mb-1 d-flex flex-wrap gap-3"
      aria-label={t("temporal.legend")}
      data-testid="temporal-legend"
    >
      <li className="list-inline-item m-0">
        <svg width="22" height="10" aria-hidden="true" className="me-1">
          <line x1="1" y1="5" x2="21" y2="5" stroke="#0d6efd" strokeWidth="2" />
        </svg>
        {valueLabel}
      </li>
      {written && (
        <li className="list-inline-item m-0">
          <svg width="12" height="12" aria-hidden="true" className="me-1">
            <circle cx="6" cy="6" r="4" fill="#fff" stroke="#fd7e14" strokeWidth="2" />
          </svg>
          {t("temporal.legendWritten")}
        </li>
      )}
    </ul>
  );
}
