import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getToken } from '../lib/session.ts';

/** The main layout is guarded by the presence of a stored token (spec section 6); the API decides the rest. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getToken()) return <Navigate to="/auth/login" replace state={{ from: location.pathname }} />;
  return children;
}
