/** sessionStorage flag: the last session ended on its own (expired, revoked, deactivated). */
export const SESSION_ENDED_FLAG = 'aporta-session-ended';

/** True once after a session ended on its own; the login page shows the message. */
export function takeSessionEndedFlag(): boolean {
  const had = sessionStorage.getItem(SESSION_ENDED_FLAG) === '1';
  sessionStorage.removeItem(SESSION_ENDED_FLAG);
  return had;
}
