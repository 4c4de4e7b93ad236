import path from 'node:path';
import type { ProviderMode } from '../shared/constants/sandbox';
import { DEFAULT_MAX_AMOUNT_PAISE, MAX_AMOUNT_CEILING_PAISE } from '../shared/money';
import { LOGIN_THROTTLE } from '../shared/rules';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL server; unset = embedded PGlite in dataDir. `memory://` = embedded, in memory (tests). */
  databaseUrl?: string;
  /**
   * A streaming replica of DATABASE_URL's server: list and report reads go there when it has replayed what they
   * must see (db/replica.ts, http/reader.ts). Only with DATABASE_URL.
   */
  databaseReplicaUrl?: string;
  /** A replica further behind than this many seconds is skipped: its reads go to the primary. */
  replicaMaxLagSeconds: number;
  adminUsername: string;
  adminPassword: string;
  demoData: boolean;
  initialPassword: string;
  sessionTtlHours: number;
  /** Built panel to serve; absent in API-only tests. */
  webDir?: string;
  logLevel: string;
  /**
   * Behind a reverse proxy: how many proxy hops to trust (a number), or which proxy addresses (a list), so
   * per-address limits see the client's address in X-Forwarded-For. Never "trust everything": a client
   * could then choose its own address.
   */
  trustProxy: false | number | string[];
  /**
   * Sign-in attempts one address may make across every user name in LOGIN_THROTTLE.perAddress's window (password
   * spraying). An office behind one address, or a browser test suite, may need more.
   */
  signInsPerAddress: number;
  /**
   * The URL people use, e.g. https://desk.example.com: `https://...` makes the XSRF cookie Secure even when TLS
   * ends at a proxy, and the sandbox partner's links point there.
   */
  publicUrl?: string;
  /** An upload that sends no bytes for this long is answered 408 and discarded. */
  uploadIdleTimeoutMs: number;
  /**
   * DATA_KEY as given (required with a PostgreSQL server and DEMO_DATA=0); main.ts falls back to a key file in
   * dataDir (see security/personal-data.ts).
   */
  dataKeyEnv?: string;
  /** `sandbox`: Tierdesk plays the account-opening partner itself; `http`: the real partner's API. */
  providerMode: ProviderMode;
  /** The partner's API in `http` mode when a call names no product (the product's own URL wins). */
  providerBaseUrl?: string;
  providerTimeoutMs: number;
  /**
   * PROVIDER_WEBHOOK_SECRET as given (required with a PostgreSQL server and DEMO_DATA=0); main.ts falls back to a
   * secret file in dataDir.
   */
  providerWebhookSecretEnv?: string;
  /** Commissions move from clearing to available this long after the sale is confirmed. */
  settlementDelayHours: number;
  /** How often the settlement job looks for due commissions. */
  settlementIntervalMs: number;
  /** The bound on a product's amount and on a payout, in paise (MAX_AMOUNT_RUPEES; default 1 crore rupees). */
  maxAmountPaise: number;
  /** Tax withheld on commissions under section 194H (modules/tds/tds.ts). */
  tds: TdsConfig;
  /** A payout above this many paise waits for a second person (PAYOUT_APPROVAL_ABOVE_RUPEES; default 10,000). */
  payoutApprovalAbovePaise: number;
  /**
   * A maker's payouts in one business day (India time) that together pass this many paise wait for a second person,
   * even when each is under the per-payout line (PAYOUT_APPROVAL_DAILY_RUPEES; default 50,000).
   */
  payoutApprovalDailyPaise: number;
  /**
   * The user types that must sign in with a second step (TOTP) and may do nothing else until they set one up
   * (MFA_REQUIRED_FOR; default admins without demo data, nobody with it).
   */
  mfaRequiredFor: number[];
  /** The most data rows one import file may hold (IMPORT_MAX_ROWS): a file with more is refused before any is judged. */
  importMaxRows: number;
  /** Notifications (issue 55, modules/notifications). */
  notify: NotifyConfig;
}

/**
 * Where notifications go: e-mail through SMTP (SMTP_URL, MAIL_FROM), SMS through the gateway (SMS_GATEWAY_URL,
 * signed with SMS_GATEWAY_SECRET; the DLT template id of each event from SMS_TEMPLATE_IDS). Without SMTP_URL or
 * SMS_GATEWAY_URL that channel's messages are written to the log instead.
 */
export interface NotifyConfig {
  smtpUrl?: string;
  mailFrom: string;
  smsGatewayUrl?: string;
  smsGatewaySecret?: string;
  /** The DLT template id registered for each event's SMS (`sale.confirmed=1107...`). */
  smsTemplateIds: Record<string, string>;
  /** How often the runner looks for due notifications while it runs them. */
  intervalMs: number;
  /** The wait before a failed delivery is tried again the first time; each later wait is three times the last. */
  firstRetryMs: number;
}

/**
 * Section 194H: the rate in basis points (hundredths of a percent: 2% = 200), the rate when the deductee gave no
 * PAN (section 206AA), the yearly threshold in paise, and which user types are deductees (tier users only:
 * customers' shares are not commission).
 */
export interface TdsConfig {
  rateBasisPoints: number;
  noPanRateBasisPoints: number;
  thresholdPaise: number;
  deducteeTypes: number[];
}

/** Section 194H's defaults: 2%, 20% without PAN (206AA), 20,000 rupees a year, tier users. */
export const DEFAULT_TDS: TdsConfig = {
  rateBasisPoints: 200,
  noPanRateBasisPoints: 2000,
  thresholdPaise: 2_000_000,
  deducteeTypes: [2, 3, 4],
};

/** PAYOUT_APPROVAL_DAILY_RUPEES's default: ₹50,000 of one maker's payouts a day without a second person. */
const DEFAULT_PAYOUT_APPROVAL_DAILY_PAISE = 50_000 * 100;

export const DEFAULTS = {
  adminUsername: '9999999999',
  adminPassword: 'Admin@1234',
  initialPassword: 'Welcome@123',
} as const;

/**
 * A setting, or a part of the set-up, that the operator must put right (a bad PORT, a database that cannot be
 * reached): the commands print its message alone, without a stack trace, and exit.
 */
export class SetupError extends Error {}

/**
 * A number setting: at least 0, or above 0 where 0 would make the setting do nothing (a session's hours).
 */
const numberSetting = (
  name: string,
  value: string | undefined,
  fallback: number,
  least: 'zero' | 'above zero',
) => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (least === 'above zero' && n === 0))
    throw new SetupError(
      `${name} must be ${least === 'zero' ? 'a non-negative number' : 'a number above 0'}, got "${value}"`,
    );
  return n;
};

/** A TCP port: 0 (any free port) to 65535. */
function portNumber(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= 65_535)) throw new SetupError(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

/** The log levels pino knows; another would stop the server at its first line of log, with pino's stack trace. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(value: string | undefined): string {
  const level = value || 'info';
  if (!LOG_LEVELS.includes(level))
    throw new SetupError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  return level;
}

/** `1` or `0`: anything else (`yes`, `true`) would quietly mean "no demo data". */
function demoData(value: string | undefined): boolean {
  const text = value ?? '1';
  if (text !== '1' && text !== '0') throw new SetupError(`DEMO_DATA must be 1 or 0, got "${text}"`);
  return text === '1';
}

/**
 * `sandbox` by default for a demo start; a start without demo data (a real network, most likely) must choose,
 * so nobody runs a network on the simulated partner without knowing it.
 */
function providerMode(value: string | undefined, demo: boolean): Config['providerMode'] {
  if (!value && !demo)
    throw new SetupError(
      'PROVIDER_MODE must be set when DEMO_DATA=0: choose http for a real network, or sandbox to try Tierdesk',
    );
  const mode = value || 'sandbox';
  if (mode !== 'sandbox' && mode !== 'http')
    throw new SetupError(`PROVIDER_MODE must be sandbox or http, got "${mode}"`);
  return mode;
}

/**
 * With a PostgreSQL server and no demo data (a real network, where several servers may share the database), the
 * keys must be given: a key file generated into each server's own DATA_DIR would differ from server to server.
 */
function requiredKey(
  name: string,
  value: string | undefined,
  databaseUrl: string | undefined,
  demo: boolean,
) {
  const shared = databaseUrl !== undefined && databaseUrl !== 'memory://' && !demo;
  if (shared && !value) {
    const why =
      name === 'DATA_KEY'
        ? 'every server on the database must seal and read its data with the same key'
        : "every server on the database must verify the partner's callbacks with the same secret";
    throw new SetupError(`${name} must be set when DATABASE_URL is set and DEMO_DATA=0: ${why}`);
  }
  return value || undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const demo = demoData(env.DEMO_DATA);
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: portNumber(env.PORT),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    databaseReplicaUrl: replicaUrl(env.DATABASE_REPLICA_URL, databaseUrl),
    replicaMaxLagSeconds: numberSetting(
      'REPLICA_MAX_LAG_SECONDS',
      env.REPLICA_MAX_LAG_SECONDS,
      30,
      'above zero',
    ),
    adminUsername: env.ADMIN_USERNAME ?? DEFAULTS.adminUsername,
    adminPassword: env.ADMIN_PASSWORD ?? DEFAULTS.adminPassword,
    demoData: demo,
    initialPassword: env.INITIAL_PASSWORD ?? DEFAULTS.initialPassword,
    sessionTtlHours: numberSetting('SESSION_TTL_HOURS', env.SESSION_TTL_HOURS, 12, 'above zero'),
    webDir: path.resolve(env.WEB_DIR ?? 'dist/web'),
    logLevel: logLevel(env.LOG_LEVEL),
    dataKeyEnv: requiredKey('DATA_KEY', env.DATA_KEY, databaseUrl, demo),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    signInsPerAddress: Math.ceil(
      numberSetting(
        'SIGN_INS_PER_ADDRESS',
        env.SIGN_INS_PER_ADDRESS,
        LOGIN_THROTTLE.perAddress.max,
        'above zero',
      ),
    ),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    uploadIdleTimeoutMs: 30_000,
    providerMode: providerMode(env.PROVIDER_MODE, demo),
    providerBaseUrl: env.PROVIDER_BASE_URL || undefined,
    providerTimeoutMs: numberSetting('PROVIDER_TIMEOUT_MS', env.PROVIDER_TIMEOUT_MS, 10_000, 'zero'),
    providerWebhookSecretEnv: requiredKey(
      'PROVIDER_WEBHOOK_SECRET',
      env.PROVIDER_WEBHOOK_SECRET,
      databaseUrl,
      demo,
    ),
    settlementDelayHours: numberSetting('SETTLEMENT_DELAY_HOURS', env.SETTLEMENT_DELAY_HOURS, 24, 'zero'),
    settlementIntervalMs: 60_000,
    maxAmountPaise: maxAmountPaise(env.MAX_AMOUNT_RUPEES),
    tds: {
      rateBasisPoints: percentSetting('TDS_RATE_PERCENT', env.TDS_RATE_PERCENT, DEFAULT_TDS.rateBasisPoints),
      noPanRateBasisPoints: percentSetting(
        'TDS_RATE_NO_PAN_PERCENT',
        env.TDS_RATE_NO_PAN_PERCENT,
        DEFAULT_TDS.noPanRateBasisPoints,
      ),
      thresholdPaise: rupeesSetting(
        'TDS_THRESHOLD_RUPEES',
        env.TDS_THRESHOLD_RUPEES,
        DEFAULT_TDS.thresholdPaise,
      ),
      deducteeTypes: deducteeTypes(env.TDS_DEDUCTEE_TYPES),
    },
    payoutApprovalAbovePaise: payoutApprovalAbovePaise(env.PAYOUT_APPROVAL_ABOVE_RUPEES),
    payoutApprovalDailyPaise: rupeesSetting(
      'PAYOUT_APPROVAL_DAILY_RUPEES',
      env.PAYOUT_APPROVAL_DAILY_RUPEES,
      DEFAULT_PAYOUT_APPROVAL_DAILY_PAISE,
    ),
    mfaRequiredFor: mfaRequiredFor(env.MFA_REQUIRED_FOR, demo),
    importMaxRows: importMaxRows(env.IMPORT_MAX_ROWS),
    notify: {
      smtpUrl: serviceUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']),
      mailFrom: env.MAIL_FROM?.trim() || 'Tierdesk <no-reply@tierdesk.invalid>',
      smsGatewayUrl: serviceUrl('SMS_GATEWAY_URL', env.SMS_GATEWAY_URL, ['http:', 'https:']),
      smsGatewaySecret: env.SMS_GATEWAY_SECRET || undefined,
      smsTemplateIds: smsTemplateIds(env.SMS_TEMPLATE_IDS),
      intervalMs: 1_000,
      firstRetryMs: 20_000,
    },
  };
}

/** SMTP_URL, SMS_GATEWAY_URL: an absolute URL of one of `protocols`, or unset. Not repeated: it may hold a password. */
function serviceUrl(name: string, value: string | undefined, protocols: string[]): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (!url || !protocols.includes(url.protocol))
    throw new SetupError(`${name} must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL`);
  return text;
}

/** `SMS_TEMPLATE_IDS`: `event=id` pairs, comma-separated (`sale.confirmed=1107161234567890123`). */
function smsTemplateIds(value: string | undefined): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const entry of (value ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const [event, id] = entry.split('=').map((part) => part.trim());
    if (!event || !id || !/^[\w-]{1,64}$/.test(id))
      throw new SetupError(
        `SMS_TEMPLATE_IDS must be comma-separated event=template-id pairs (sale.confirmed=1107...), got "${value}"`,
      );
    ids[event] = id;
  }
  return ids;
}

/** The user types that may sign in to the panel (every type but customers), as MFA_REQUIRED_FOR lists them. */
const PANEL_TYPES = ['0', '2', '3', '4', '5'];

/**
 * `MFA_REQUIRED_FOR`: the user types, comma-separated, that must use a second step. Unset: admins (`0`) on a real
 * network (DEMO_DATA=0), nobody with demo data, so the demo's sign-ins stay a password. Set but empty: nobody.
 */
function mfaRequiredFor(value: string | undefined, demo: boolean): number[] {
  if (value === undefined) return demo ? [] : [0];
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!list.every((entry) => PANEL_TYPES.includes(entry)))
    throw new SetupError(
      `MFA_REQUIRED_FOR must be a comma-separated list of the user types 0, 2, 3, 4 and 5 (admins, master distributors, distributors, retailers, employees), or empty, got "${value}"`,
    );
  return [...new Set(list.map(Number))].sort();
}

/** IMPORT_MAX_ROWS's default and its ceiling. */
export const IMPORT_ROWS = { default: 200_000, ceiling: 1_000_000 } as const;

/**
 * `IMPORT_MAX_ROWS`: the most data rows one import file may hold (default 200,000). A job keeps each row's keys
 * while it reads the file (to find a row that repeats an earlier one), so the bound is also its memory's.
 */
function importMaxRows(value: string | undefined): number {
  if (value === undefined || value === '') return IMPORT_ROWS.default;
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > IMPORT_ROWS.ceiling)
    throw new SetupError(
      `IMPORT_MAX_ROWS must be a whole number of rows from 1 to ${IMPORT_ROWS.ceiling}, got "${value}"`,
    );
  return Number(text);
}

/**
 * `DATABASE_REPLICA_URL`: a replica of the PostgreSQL server DATABASE_URL names. The embedded database has none,
 * so without DATABASE_URL it is refused rather than ignored.
 */
function replicaUrl(value: string | undefined, databaseUrl: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!databaseUrl || databaseUrl === 'memory://')
    throw new SetupError(
      'DATABASE_REPLICA_URL needs DATABASE_URL: a replica copies a PostgreSQL server, and the embedded database has none',
    );
  if (!/^postgres(ql)?:\/\//.test(text))
    // Not repeated: the URL may carry a password.
    throw new SetupError('DATABASE_REPLICA_URL must be a postgres:// or postgresql:// URL');
  return text;
}

/** A percentage from 0 to 100 with at most two decimals (`2`, `0.75`), as basis points (2% = 200). */
function percentSetting(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = value.trim();
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  const basisPoints = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : Number.NaN;
  if (!(basisPoints <= 10_000))
    throw new SetupError(
      `${name} must be a percentage from 0 to 100 with at most two decimals, got "${value}"`,
    );
  return basisPoints;
}

/** A whole number of rupees from 0 up to the exact bound, as paise. */
function rupeesSetting(name: string, value: string | undefined, fallbackPaise: number): number {
  if (value === undefined || value === '') return fallbackPaise;
  const text = value.trim();
  const ceiling = MAX_AMOUNT_CEILING_PAISE / 100;
  if (!/^\d+$/.test(text) || Number(text) > ceiling)
    throw new SetupError(`${name} must be a whole number of rupees from 0 to ${ceiling}, got "${value}"`);
  return Number(text) * 100;
}

/** The tier user types (2, 3, 4) whose commissions are taxed, comma-separated; customers never are. */
function deducteeTypes(value: string | undefined): number[] {
  if (value === undefined || value === '') return DEFAULT_TDS.deducteeTypes;
  const list = value.split(',').map((entry) => entry.trim());
  if (!list.every((entry) => ['2', '3', '4'].includes(entry)))
    throw new SetupError(
      `TDS_DEDUCTEE_TYPES must be a comma-separated list of 2, 3 and 4 (master distributors, distributors, retailers), got "${value}"`,
    );
  return [...new Set(list.map(Number))].sort();
}

/**
 * `MAX_AMOUNT_RUPEES`: the most a product may cost or a payout pay, in whole rupees (default 1 crore, 1,00,00,000),
 * up to 10^13 rupees, where every amount and share is still exact as a JavaScript number.
 */
function maxAmountPaise(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_MAX_AMOUNT_PAISE;
  const text = value.trim();
  const ceiling = MAX_AMOUNT_CEILING_PAISE / 100;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > ceiling)
    throw new SetupError(
      `MAX_AMOUNT_RUPEES must be a whole number of rupees from 1 to ${ceiling}, got "${value}"`,
    );
  return Number(text) * 100;
}

/**
 * `PAYOUT_APPROVAL_ABOVE_RUPEES`: a payout above this many whole rupees (default 10,000) is a pending command an
 * admin who did not make it must approve (maker-checker). 0 sends every payout through approval.
 */
function payoutApprovalAbovePaise(value: string | undefined): number {
  if (value === undefined || value === '') return 10_000 * 100;
  const text = value.trim();
  const ceiling = MAX_AMOUNT_CEILING_PAISE / 100;
  if (!/^\d+$/.test(text) || Number(text) > ceiling)
    throw new SetupError(
      `PAYOUT_APPROVAL_ABOVE_RUPEES must be a whole number of rupees from 0 to ${ceiling}, got "${value}"`,
    );
  return Number(text) * 100;
}

/** `TRUST_PROXY`: a hop count (`1` = one reverse proxy in front) or a comma-separated list of addresses/CIDRs. */
export function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  const text = value?.trim();
  if (!text || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  const bad = list.find((entry) => !address.test(entry) && !named.has(entry));
  if (bad !== undefined || list.length === 0)
    throw new SetupError(
      `TRUST_PROXY must be a hop count (such as 1) or a comma-separated list of proxy addresses; got "${text}"`,
    );
  return list;
}

function parsePublicUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SetupError(`PUBLIC_URL must be an absolute http:// or https:// URL; got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SetupError(`PUBLIC_URL must be an absolute http:// or https:// URL; got "${text}"`);
  return text.replace(/\/+$/, '');
}
