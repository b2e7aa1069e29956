import type { ImportBatch } from '@aporta/domain';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** A batch still being validated or committed (background jobs the user may leave and come back to). */
export const batchInProgress = (status: string | undefined) => status === 'VALIDANDO' || status === 'CONFIRMANDO';

/** The upload on an upload screen lives in the address (`?carga=<id>`): a reload, or coming back later, finds it. */
export function useBatchInAddress(): [string | null, (next: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const setId = (next: string | null) =>
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        if (next) q.set('carga', next);
        else q.delete('carga');
        return q;
      },
      { replace: true },
    );
  return [params.get('carga'), setId];
}

/**
 * Follows the upload on screen: coming back without one in the address, the newest of the caller's open
 * uploads still validating or committing (`open`, newest first) is shown again; `onCommitEnd` runs once
 * when the batch on screen leaves CONFIRMANDO while the screen follows it (CONFIRMADO, or sent back
 * with the reason).
 */
export function useFollowUpload<B extends ImportBatch>(opts: {
  id: string | null;
  setId: (next: string) => void;
  open: B[] | undefined;
  current: B | null;
  onCommitEnd: (batch: B) => void;
}): void {
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || opts.id || !opts.open) return;
    resumed.current = true;
    const running = opts.open.find((b) => batchInProgress(b.status));
    if (running) opts.setId(running.id);
  });

  const followed = useRef<{ id: string; status: string } | null>(null);
  useEffect(() => {
    const { current } = opts;
    const before = followed.current;
    followed.current = current ? { id: current.id, status: current.status } : null;
    if (!current || before?.id !== current.id || before.status !== 'CONFIRMANDO' || current.status === 'CONFIRMANDO') return;
    opts.onCommitEnd(current);
  });
}
