import { useEffect, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { acceptReady, loadAcceptScript } from './accept';

export type AcceptScriptState = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * Loads the tokenising script named by the payments status (null: payments not configured, nothing
 * to load) and says where it stands; a failed load is toasted once. Already on the page: ready at once.
 */
export function useAcceptScript(acceptJsUrl: string | null | undefined): AcceptScriptState {
  const [state, setState] = useState<AcceptScriptState>('idle');
  useEffect(() => {
    if (!acceptJsUrl) return;
    if (acceptReady()) {
      setState('ready');
      return;
    }
    let live = true;
    setState('loading');
    loadAcceptScript(acceptJsUrl).then(
      () => live && setState('ready'),
      () => {
        if (!live) return;
        setState('failed');
        toast({ title: 'Payment Error', description: 'Failed to load secure payment system. Please refresh the page.', variant: 'destructive' });
      },
    );
    return () => {
      live = false;
    };
  }, [acceptJsUrl]);
  return state;
}
