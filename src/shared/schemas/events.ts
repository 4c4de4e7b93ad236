import type { SaleStatus } from '../enums';
import type { CommandKind } from './approvals';
import type { ImportCounts, ImportKind, ImportStatus } from './imports';

/**
 * The event stream (`GET events`, issue 55): a server-sent event per change in the signed-in person's scope, which
 * the panel reads to refresh its screens (src/web/layout/LiveEvents.tsx). Each message is `id:` (the event's number,
 * increasing, for `Last-Event-ID`), `event:` (one of these kinds) and `data:` (one JSON object, below).
 */
export const LIVE_EVENT_KINDS = [
  'sale',
  'approval',
  'import',
  'lead',
  'settlement',
  'session-ended',
] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/**
 * A sale recorded or changed. `code` is its utmCode (what its page is titled by); `commission` (rupees) is there
 * only for a master distributor, distributor or retailer receiving a share of it: the reader's own share.
 */
export interface SaleEventData {
  id: string;
  status: SaleStatus;
  code: string;
  commission?: number;
}

/** A command made, approved or rejected (maker-checker); `maker` is the person who made it. */
export interface ApprovalEventData {
  id: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  kind: CommandKind;
  maker: string;
}

/** An import's progress (after each batch) and its end; `kind` is what it imports. */
export interface ImportEventData {
  id: string;
  status: ImportStatus;
  kind: ImportKind;
  dryRun: boolean;
  counts: ImportCounts;
}

/** An onboarding application received or decided. */
export interface LeadEventData {
  id: string;
  status: 'NEW' | 'APPROVED' | 'REJECTED';
}

/** Commissions of `user` moved from clearing to available: `amount` rupees, before the tax withheld. */
export interface SettlementEventData {
  user: string;
  amount: number;
}

/** This session was ended elsewhere (signed out, its password changed, deactivated): `{}`. */
export type SessionEndedEventData = Record<string, never>;

export interface LiveEventData {
  sale: SaleEventData;
  approval: ApprovalEventData;
  import: ImportEventData;
  lead: LeadEventData;
  settlement: SettlementEventData;
  'session-ended': SessionEndedEventData;
}

/** How often the stream sends a comment line when nothing else is sent, so proxies keep the connection open. */
export const EVENT_HEARTBEAT_MS = 15_000;

/** How long events are kept for streams that reconnect with `Last-Event-ID`. */
export const EVENT_RETENTION_HOURS = 24;
