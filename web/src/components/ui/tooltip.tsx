/** Tooltip on radix-ui: shows on hover and on keyboard focus. */
import { Tooltip as T } from 'radix-ui';
import type { ReactNode } from 'react';

export const TooltipProvider = T.Provider;

export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <T.Root>
      <T.Trigger asChild>{children}</T.Trigger>
      <T.Portal>
        <T.Content className="tooltip" sideOffset={6}>
          {content}
          <T.Arrow className="tooltip-arrow" />
        </T.Content>
      </T.Portal>
    </T.Root>
  );
}
