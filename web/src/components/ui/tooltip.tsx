import { TOOLTIP } from '@nh/shared/constants';
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Tooltip timing of storefront §9: open after 700 ms, 300 ms skip window between tooltips. */
export function TooltipProvider({
  delayDuration = TOOLTIP.delayMs,
  skipDelayDuration = TOOLTIP.skipDelayMs,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration} {...props} />;
}

export const Tooltip = TooltipPrimitive.Root;
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({ className, sideOffset = 6, ...props }: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn('z-50 rounded-md bg-brand-900 px-3 py-1.5 text-xs text-white shadow-md', className)}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}
