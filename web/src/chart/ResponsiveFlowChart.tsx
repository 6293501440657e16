// Measures its container and lays the flow chart out at that width (1 SVG unit = 1 px),
// so text keeps its size on a phone instead of being scaled down.

import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { FlowChart, type FlowChartProps } from "./FlowChart.tsx";

export function ResponsiveFlowChart(props: Omit<FlowChartProps, "width">) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const measure = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return (
    <div class="chart-holder" ref={ref}>
      {width > 0 && <FlowChart {...props} width={Math.min(width, 640)} />}
    </div>
  );
}
