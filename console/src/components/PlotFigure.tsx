import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'react';

/** Room for a swatch legend (one line of swatches, with its margin). */
const LEGEND_HEIGHT = 40;

/**
 * An Observable Plot chart in a box of fixed height (no layout shift while data loads), redrawn when its options
 * change and at the width its box has. `label` names the chart for screen readers; the numbers are in the table
 * beside every chart.
 */
export function PlotFigure({ options, height, label }: { options: Plot.PlotOptions; height: number; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const draw = () => {
      const width = Math.max(280, Math.floor(element.clientWidth));
      // A legend is drawn above the plot, inside the same box: the plot gets what is left.
      const legendRoom = (options.color as { legend?: boolean } | undefined)?.legend ? LEGEND_HEIGHT : 0;
      const chart = Plot.plot({ ...options, width, height: height - legendRoom, style: { background: 'transparent', fontSize: '12px', ...(options.style as object) } });
      // The box is the image for assistive technology (named by `label`); Plot's own marks are hidden from it.
      chart.setAttribute('aria-hidden', 'true');
      element.replaceChildren(chart);
    };
    draw();
    const observer = new ResizeObserver(() => draw());
    observer.observe(element);
    return () => observer.disconnect();
  }, [options, height, label]);
  return <div className="chart" ref={box} style={{ height }} role="img" aria-label={label} />;
}
