import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** A line chart of numeric values over time (uPlot; loaded with the temporal view's chart only). */
export default function TemporalChart({ series, label }: { series: [number[], number[]]; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(300, element.clientWidth || 600);
    const plot = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: true } },
        series: [{}, { label, stroke: "#0d6efd", width: 2, points: { show: series[0].length < 200 } }],
        axes: [{}, {}],
      },
      series,
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
  }, [series, label]);
  return <div ref={host} role="img" aria-label={label} data-testid="temporal-chart" />;
}
