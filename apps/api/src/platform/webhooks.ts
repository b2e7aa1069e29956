import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { EventEmitter } from 'node:events';
import { BlockList, isIP } from 'node:net';
import { AppError, detail, msg, type WebhookData, type WebhookEvent } from '@aporta/domain';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';

/**
 * Signed webhooks (issue 30), the platform's part: `enqueueWebhook(tx, …)` writes one delivery per active
 * endpoint subscribed to the event (the entity's and the institution-wide ones) in the transaction of the
 * change; platform/webhook-dispatcher.ts sends them. Here too: the endpoints' secrets (sealed with
 * SIGNING_MASTER_KEY when configured), the signature, and where a URL may point (https; http only to loopback
 * outside production; private addresses refused in production unless WEBHOOK_ALLOW_PRIVATE). Decisions in
 * docs/decisions.md («Webhooks firmados»).
 */

export interface WebhookSettings {
  /** NODE_ENV === 'production': http:// and private addresses are refused. */
  production: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: private and loopback addresses allowed in production (an internal receiver). */
  allowPrivate: boolean;
  /** SIGNING_MASTER_KEY, when configured: secrets are sealed with a key derived from it. */
  masterKey?: string;
}

let settings: WebhookSettings = { production: false, allowPrivate: false };

/** Set once by buildApp from the configuration. */
export function configureWebhooks(s: WebhookSettings): void {
  settings = { ...s };
}

const sealKey = () => (settings.masterKey ? createHash('sha256').update(`aporta-webhooks:${settings.masterKey}`).digest() : null);

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** The secret as stored: `enc:` AES-256-GCM (iv.tag.body) under SIGNING_MASTER_KEY, else `raw:` as is. */
export function sealWebhookSecret(secret: string): string {
  const key = sealKey();
  if (!key) return `raw:${secret}`;
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return `enc:${[iv, c.getAuthTag(), body].map((b) => b.toString('base64')).join('.')}`;
}

/** The secret back (throws when sealed under another key). */
export function openWebhookSecret(stored: string): string {
  if (stored.startsWith('raw:')) return stored.slice(4);
  const key = sealKey();
  if (!stored.startsWith('enc:') || !key) throw new AppError('INTERNAL', msg('webhooks.secretUnreadable'));
  try {
    const [iv, tag, body] = stored
      .slice(4)
      .split('.')
      .map((s) => Buffer.from(s, 'base64'));
    const d = createDecipheriv('aes-256-gcm', key, iv);
    d.setAuthTag(tag);
    return Buffer.concat([d.update(body), d.final()]).toString('utf8');
  } catch {
    throw new AppError('INTERNAL', msg('webhooks.secretUnreadable'));
  }
}

/** `sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`: the X-Aporta-Signature header. */
export const signWebhook = (secret: string, timestamp: number | string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

// ------------------------------------------------------------------ where a URL may point

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Addresses no webhook reaches in production: private, loopback, link-local, CGNAT, multicast, reserved. */
const privateRanges = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  privateRanges.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(net, bits, 'ipv6');

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const v = isIP(address);
  return v === 4 ? 'ipv4' : v === 6 ? 'ipv6' : null;
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as its IPv4. */
const unmapped = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

export function isLoopbackAddress(address: string): boolean {
  const a = unmapped(bareHost(address));
  const f = familyOf(a);
  return !!f && loopback.check(a, f);
}

export function isPrivateAddress(address: string): boolean {
  const a = unmapped(bareHost(address));
  const f = familyOf(a);
  return !f || privateRanges.check(a, f);
}

const isLoopbackHost = (hostname: string) => {
  const h = bareHost(hostname);
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
};

const urlError = (m: ReturnType<typeof msg>) => new AppError('VALIDATION', undefined, [{ path: 'url', ...detail(m) }]);

/**
 * Whether a URL may be registered (400 naming «url» otherwise): https://, or http:// to a loopback host outside
 * production; in production, a literal private address is refused at once (a name is checked when it is
 * resolved, at each send: `webhookLookup`).
 */
export function checkWebhookUrl(raw: string): string {
  const u = new URL(raw);
  const host = bareHost(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && !settings.production && isLoopbackHost(host))) {
    throw urlError(msg('webhooks.urlNotHttps'));
  }
  if (settings.production && !settings.allowPrivate && (isLoopbackHost(host) || (familyOf(host) && isPrivateAddress(host)))) {
    throw urlError(msg('webhooks.urlPrivate', { host }));
  }
  return u.toString();
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The DNS lookup a delivery connects with: in production (without WEBHOOK_ALLOW_PRIVATE) a name that resolves to
 * a private address is refused there and then, so a name cannot be turned to the inside after it was registered
 * (the connection goes to the address checked, never to a second resolution).
 */
export function webhookLookup(
  hostname: string,
  options: { all?: boolean; family?: number } | number,
  callback: LookupCallback,
): void {
  const opts = typeof options === 'number' ? { family: options } : (options ?? {});
  dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (settings.production && !settings.allowPrivate) {
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) {
        const e = new Error(msg('webhooks.urlPrivate', { host: hostname }).text) as NodeJS.ErrnoException;
        e.code = 'EPRIVATE';
        return callback(e, []);
      }
    }
    if (opts.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}

/** Whether a literal address host may be connected to now (names go through `webhookLookup`). */
export function literalHostAllowed(hostname: string): boolean {
  const h = bareHost(hostname);
  if (!familyOf(h)) return true;
  return !settings.production || settings.allowPrivate || !isPrivateAddress(h);
}

// ------------------------------------------------------------------ queueing

/** Tells this process's dispatcher that deliveries were queued (it also polls, for other processes'). */
export const webhookWakeups = new EventEmitter();

/**
 * Writes, in `tx` (the change's transaction), one delivery of `event` for each active endpoint subscribed to it
 * that serves `entityId` (its own endpoints and the institution-wide ones; `entityId` null: institution-wide
 * only). `record` names the fact (a planilla's id, an order's id…): the same record is delivered once per
 * endpoint and event. With `endpointId`, that one active endpoint only, whatever its events (the ping of
 * «Probar»). Returns how many deliveries were written.
 */
export async function enqueueWebhook(
  tx: Db,
  event: WebhookEvent,
  entityId: number | null,
  payload: { record: string | number; data: WebhookData; endpointId?: number },
): Promise<number> {
  const occurredAt = new Date().toISOString();
  const record = String(payload.record).slice(0, 300);
  const data = JSON.stringify(payload.data);
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      INSERT INTO webhook_deliveries (id, endpoint_id, entity_id, event, record_key, payload)
      SELECT n.id, n.endpoint_id, ${entityId}::int, ${event}::text, ${record}::text,
             jsonb_build_object('event', ${event}::text, 'id', n.id::text, 'occurred_at', ${occurredAt}::text,
                                'data', ${data}::jsonb)
        FROM (SELECT nextval(pg_get_serial_sequence('webhook_deliveries', 'id')) AS id, e.id AS endpoint_id
                FROM webhook_endpoints e
               WHERE e.is_active
                 AND ${
                   payload.endpointId != null
                     ? sql`e.id = ${payload.endpointId}::int`
                     : sql`${event}::text = ANY (e.events) AND (e.entity_id IS NULL OR e.entity_id = ${entityId}::int)`
                 }
               ORDER BY e.id) n
      ON CONFLICT (endpoint_id, event, record_key) DO NOTHING
      RETURNING id`),
  );
  if (rows.length) webhookWakeups.emit('enqueued');
  return rows.length;
}
