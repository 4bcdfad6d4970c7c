import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/**
 * The axes' tick labels in the reader's language, times in UTC like the window above the chart:
 * hours and minutes, with the day when the ticks span more than one.
 */
export function tickFormats(language: string) {
  const time = new Intl.DateTimeFormat(language, { timeZone: "UTC", hour: "2-digit", minute: "2-digit" });
  const day = new Intl.DateTimeFormat(language, {
    timeZone: "UTC",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 3 });
  return {
    times: (seconds: number[]) => {
      const days = new Set(seconds.map((s) => Math.floor(s / 86_400)));
      return seconds.map((s) => (days.size > 1 ? day : time).format(new Date(s * 1000)));
    },
    numbers: (values: number[]) => values.map((v) => number.format(v)),
  };
}

/**
 * A line chart of numeric values over time (uPlot; loaded with the temporal view's chart only).
 * The values that have no observedAt (placed at the time the broker wrote them: the third row of
 * `series`) are drawn again as hollow orange points, named by `writtenLabel`.
 */
export default function TemporalChart({
  series,
  label,
  valueLabel,
  writtenLabel,
  timeLabel,
  language,
}: {
  series: [number[], number[], Array<number | null>];
  label: string;
  valueLabel: string;
  writtenLabel: string;
  timeLabel: string;
  language: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(300, element.clientWidth || 600);
    const formats = tickFormats(language);
    const written = series[2].some((v) => v !== null);
    const plot = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: true } },
        // The axes name what they show: no legend of "--" placeholders.
        legend: { show: false },
        series: [
          {},
          { label: valueLabel, stroke: "#0d6efd", width: 2, points: { show: series[0].length < 200 } },
          ...(written
            ? [
                {
                  label: writtenLabel,
                  stroke: "#d63384",
                  width: 0,
                  paths: () => null,
                  points: { show: true, size: 9, width: 2, stroke: "#fd7e14", fill: "#fff" },
                },
              ]
            : []),
        ],
        axes: [
          { label: timeLabel, values: (_u, splits) => formats.times(splits) },
          { label: valueLabel, values: (_u, splits) => formats.numbers(splits) },
        ],
      },
      written ? series : [series[0], series[1]],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(300, element.clientWidth), height: 260 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, valueLabel, writtenLabel, timeLabel, language]);
  return <div ref={host} role="img" aria-label={label} data-testid="temporal-chart" />;
}
