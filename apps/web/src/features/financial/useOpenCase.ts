import type { ArrearsRow } from '@aporta/domain';

/**
 * Opening a legal case from a ranking row, in one click: null until the legal module provides it (then it
 * opens the case for the row's entity and goes to it). Only for holders of legal-module CREATE.
 */
export function useOpenCase(): ((row: ArrearsRow) => void) | null {
  return null;
}
