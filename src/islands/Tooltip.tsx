import type { ReactNode } from 'react';
import * as RadixTooltip from '@radix-ui/react-tooltip';
import { TOOLTIP_DELAY_MS, TOOLTIP_OFFSET_PX, TOOLTIP_SIDE, TOOLTIP_SKIP_DELAY_MS } from '../lib/domain/ui';

interface Props {
  /** The tooltip text. */
  content: ReactNode;
  /** One focusable element (a button or link) that the tooltip describes. */
  children: ReactNode;
}

/** A tooltip with the spec's constants (section 9): opens after 700 ms, 300 ms skip delay, on top, 4 px away. */
export default function Tooltip({ content, children }: Props) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content side={TOOLTIP_SIDE} sideOffset={TOOLTIP_OFFSET_PX} className="tooltip">
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
