/**
 * Resolves once the browser has painted the first frame after this module ran (a task after the
 * frame's `requestAnimationFrame`), at once on the server and from then on. The checkout's route
 * (app/router.tsx) waits for it before it asks for its code on the first load: its shell (heading and
 * frame, features/checkout/components/checkout-shell.tsx) paints first, then some thirty chunks load;
 * started together, their downloads and compiling came before the shell's paint. Later navigations
 * find it resolved.
 */
const firstPaint: Promise<void> =
  typeof requestAnimationFrame === 'function'
    ? new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    : Promise.resolve();

export function afterFirstPaint(): Promise<void> {
  return firstPaint;
}
