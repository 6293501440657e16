// One comparison page: the question, systems A and B side by side (stacked on phones), and
// "I prefer A" / "I prefer B" / "They seem about the same". Keyboard: Left, Right, 0.

import { useState } from "preact/hooks";
import type { Comparison } from "../api/types.ts";
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

export function ComparisonView(p: ComparisonViewProps) {
  const [showTables, setShowTables] = useState(false);
  const { words, question } = p;
  const noun = systemNoun(words);
  const tradeOff = tradeOffLine(question.left, question.right, words);

  const chart = (side: "left" | "right", name: string) => {
    const props: Omit<FlowChartProps, "width"> = {
      system: question[side],
      words,
      name,
      id: `q${question.id}-${side}`,
      showTable: showTables,
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
      announce={`${noun} A on the left, ${noun} B on the right. ${tradeOff}`}
      renderSystem={chart}
      tradeOff={tradeOff}
      tools={
        <button
          type="button"
          class="secondary"
          aria-pressed={showTables}
          onClick={() => setShowTables(!showTables)}
        >
          {showTables ? "Hide the numbers as tables" : "Show the numbers as tables"}
        </button>
      }
    />
  );
}
