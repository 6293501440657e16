// One comparison page: the question, systems A and B side by side, and "I prefer A" /
// "I prefer B" / "They seem about the same". Keyboard: Left, Right, 0. On a phone each system
// is a compact table of its counts, side by side, so that both systems, their trade-off line
// and both "I prefer" buttons fit in one screen (issue 11); wider, each is a flow chart.

import { useEffect, useState } from "preact/hooks";
import { DEFAULT_PAGE_LABELS } from "../../../src/server/study/page-label-defaults.ts";
import type { Comparison } from "../api/types.ts";
import { CompactCounts } from "../chart/CompactCounts.tsx";
import type { FlowChartProps } from "../chart/FlowChart.tsx";
import { FlowChart } from "../chart/FlowChart.tsx";
import { tradeOffLine } from "../chart/format.ts";
import { ResponsiveFlowChart } from "../chart/ResponsiveFlowChart.tsx";
import { ComparisonPage, type ComparisonViewBase, systemNoun } from "./ComparisonPage.tsx";

export interface ComparisonViewProps extends ComparisonViewBase {
  question: Comparison;
  /** Server-side/tests: fixed chart width instead of measuring. */
  fixedWidth?: number;
}

/** Viewports at most this wide show the compact tables instead of the flow charts. */
export const COMPACT_QUERY = "(max-width: 560px)";

/**
 * Whether a CSS media query matches now, following later changes (false without a window).
 * @example const phone = useMediaQuery("(max-width: 560px)");
 */
export function useMediaQuery(query: string): boolean {
  const mql = typeof window === "undefined" ? undefined : window.matchMedia?.(query);
  const [matches, setMatches] = useState(mql?.matches ?? false);
  useEffect(() => {
    if (mql === undefined) return;
    const update = () => setMatches(mql.matches);
    update();
    mql.addEventListener("change", update);
    return () => mql.removeEventListener("change", update);
  }, [query]);
  return matches;
}

export function ComparisonView(p: ComparisonViewProps) {
  const [showTables, setShowTables] = useState(false);
  const phone = useMediaQuery(COMPACT_QUERY);
  const compact = phone && p.fixedWidth === undefined;
  const { words, question } = p;
  const noun = systemNoun(words);
  const tradeOff = tradeOffLine(
    question.left,
    question.right,
    words,
    ["A", "B"],
    p.labels ?? DEFAULT_PAGE_LABELS,
  );

  const chart = (side: "left" | "right", name: string) => {
    if (compact)
      return <CompactCounts system={question[side]} words={words} name={name} labels={p.labels} />;
    const props: Omit<FlowChartProps, "width"> = {
      system: question[side],
      words,
      name,
      id: `q${question.id}-${side}`,
      showTable: showTables,
      ...(p.labels !== undefined ? { labels: p.labels } : {}),
    };
    return p.fixedWidth !== undefined ? (
      <FlowChart {...props} width={p.fixedWidth} />
    ) : (
      <ResponsiveFlowChart {...props} />
    );
  };

  return (
    <ComparisonPage
      {...p}
      compact={compact}
      announce={`${noun} A on the left, ${noun} B on the right. ${tradeOff}`}
      renderSystem={chart}
      tradeOff={tradeOff}
      tools={
        compact ? undefined : (
          <button
            type="button"
            class="secondary"
            aria-pressed={showTables}
            onClick={() => setShowTables(!showTables)}
          >
            {showTables
              ? (p.labels?.tablesHide ?? "Hide the numbers as tables")
              : (p.labels?.tablesShow ?? "Show the numbers as tables")}
          </button>
        )
      }
    />
  );
}
