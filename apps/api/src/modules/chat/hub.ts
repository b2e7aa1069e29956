import { type Presence, presenceStatuses } from '@aporta/domain';
import { z } from 'zod';

/**
 * The chat's live delivery: the events a member's stream hears and the hub that carries them, through
 * the database's notifications across processes or in process.
 */

/** What the event stream tells a member: something changed in a conversation, or someone's presence. */
export type ChatEvent =
  | { type: 'message'; conversationId: number; messageId: number; userIds: number[] }
  | { type: 'presence'; userId: number; status: Presence }
  | { type: 'read'; conversationId: number; userIds: number[] };

type Listener = (event: ChatEvent) => void;

/**
 * The process's chat hub. Events are published through the database's notifications when it has them
 * (PostgreSQL: every API process hears every event, `aporta_chat`), or delivered in process (PGlite,
 * one process). Subscribers are the open event streams of this process.
 */
export class ChatHub {
  private listeners = new Set<Listener>();
  private notify: ((payload: string) => Promise<void>) | null = null;

  /** With PostgreSQL: publish through NOTIFY; the LISTEN side calls `deliver`. */
  useNotify(notify: (payload: string) => Promise<void>) {
    this.notify = notify;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(event: ChatEvent) {
    for (const l of this.listeners) l(event);
  }

  async publish(event: ChatEvent) {
    if (this.notify) await this.notify(JSON.stringify(event));
    else this.deliver(event);
  }
}

export const chatEventSchema = z.union([
  z.object({ type: z.literal('message'), conversationId: z.number(), messageId: z.number(), userIds: z.array(z.number()) }),
  z.object({ type: z.literal('presence'), userId: z.number(), status: z.enum(presenceStatuses) }),
  z.object({ type: z.literal('read'), conversationId: z.number(), userIds: z.array(z.number()) }),
]);
