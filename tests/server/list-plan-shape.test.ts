// No list call reads users, postings or sales sequentially: the statements each call really sends (recorded at
// the pool while the call runs through HTTP) are explained with their values and sequential scans disabled,
// which leaves a sequential scan only where no index serves a filter, a join or an order. The plan's shape is
// asserted, never an index's name or a time. Runs on PGlite and, with DATABASE_URL, on PostgreSQL: PGlite is
// PostgreSQL's own planner, and the same check holds on both.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelCalls } from '../bench/lists';
import {
  call,
  DEMO_PASSWORD,
  login,
  makeScaledContext,
  recordStatements,
  type SentStatement,
  type TestContext,
} from './helpers';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const BIG_TABLES = ['users', 'postings', 'bought_products'];

function sequentialScans(node: PlanNode): string[] {
  const here =
    node['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(node['Relation Name'] ?? '')
      ? [node['Relation Name'] as string]
      : [];
  return [...here, ...(node.Plans ?? []).flatMap(sequentialScans)];
}

let ctx: TestContext;
let calls: Awaited<ReturnType<typeof panelCalls>>;
const recorded: SentStatement[] = [];

beforeAll(async () => {
  ctx = await makeScaledContext();
  await ctx.database.pool.query('analyze');
  calls = await panelCalls(ctx.database);
  recordStatements(ctx.database.pool, (statement) => {
    if (/^\s*(\/\*.*?\*\/\s*)?(select|with)/is.test(statement.text)) recorded.push(statement);
  });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

/** The plan of `text` with `values`, sequential scans disabled. */
async function planOf(text: string, values: unknown[]): Promise<PlanNode> {
  const client = await ctx.database.pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
    return (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}

/** Each call's statements and the big tables their plans read sequentially (none expected). */
async function scansOf(token: string, list: [string, string][]) {
  const found: Record<string, string[]> = {};
  for (const [name, url] of list) {
    recorded.length = 0;
    const [path, search] = url.split('?');
    const res = await call(ctx.app, 'GET', path, {
      token,
      query: Object.fromEntries(new URLSearchParams(search ?? '')),
    });
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    const statements = recorded.splice(0);
    // The session's look-up and at least the call's own statement.
    expect(statements.length, name).toBeGreaterThan(1);
    for (const { text, values } of statements) {
      const scans = sequentialScans(await planOf(text, values));
      if (scans.length) found[`${name}: ${text}`] = scans;
    }
  }
  return found;
}

describe('the plan of every list call', () => {
  it('reads users, postings and sales through indexes, for the admin, a master distributor and a retailer', async () => {
    const admin = await login(ctx.app, ctx.config.adminUsername, ctx.config.adminPassword);
    const md = await login(ctx.app, calls.users.md, DEMO_PASSWORD);
    const retailer = await login(ctx.app, calls.users.retailer, DEMO_PASSWORD);
    const found = {
      ...(await scansOf(admin.token, [
        ...calls.admin,
        ['employees', 'account/fetch?type=5&page=1&limit=10'],
        ['distributors of an MD', `account/fetch?type=3&page=1&limit=10&masterDistributorId=${calls.ids.md}`],
        ['customers of a retailer', `account/fetch?type=1&page=1&limit=10&retailerId=${calls.ids.retailer}`],
        ['customers search letters', 'account/fetch?type=1&page=1&limit=10&searchText=kumar'],
        ['transactions by status', 'transactions/fetch?page=1&limit=10&status=CLEARING'],
        // Issue 43: days with every other filter of the list.
        ['transactions from a day', `transactions/fetch?page=1&limit=10&from=${calls.days.pastDay}`],
        ['transactions to a day', `transactions/fetch?page=1&limit=10&to=${calls.days.pastDay}`],
        [
          'transactions by status in days',
          `transactions/fetch?page=1&limit=10&status=SETTLED&from=${calls.days.monthFrom}&to=${calls.days.monthTo}`,
        ],
        [
          'transactions by transaction type in days',
          `transactions/fetch?page=1&limit=10&transactionType=DEBIT&from=${calls.days.monthFrom}&to=${calls.days.monthTo}`,
        ],
        [
          'transactions by sale in days',
          `transactions/fetch?page=1&limit=10&boughtProductId=${calls.ids.sale}&from=${calls.days.monthFrom}`,
        ],
        [
          'transactions by user type and user in days',
          `transactions/fetch?page=1&limit=10&userType=4&userId=${calls.ids.retailer}&to=${calls.days.monthTo}`,
        ],
        ['sales by status', 'bought_products/fetch?page=1&limit=10&status=PENDING'],
        ['sales searched', 'bought_products/fetch?page=1&limit=10&searchText=kumar'],
        ['audit', 'audit/fetch?page=1&limit=10'],
        ['leads', 'leads/fetch?page=1&limit=10'],
      ])),
      ...(await scansOf(md.token, [
        ...calls.md,
        ['MD: its customers', 'account/fetch?type=1&page=1&limit=10'],
        ['MD: its wallet', 'wallet/fetch?page=1&limit=10'],
      ])),
      ...(await scansOf(retailer.token, [
        ...calls.retailer,
        ['retailer: its wallet', 'wallet/fetch?page=1&limit=10'],
        ['retailer: its credits', 'wallet/fetch?page=1&limit=10&transactionType=CREDIT'],
        [
          'retailer: its credits in days',
          `wallet/fetch?page=1&limit=10&transactionType=CREDIT&from=${calls.days.pastDay}&to=${calls.days.monthTo}`,
        ],
        ['retailer: customer search', 'account/fetch?type=1&page=1&limit=10&searchText=94'],
      ])),
    };
    expect(found).toEqual({});
  });

  it('catches a statement that has no index path (the check can fail)', async () => {
    const plan = await planOf(`select id from users where name || '' = $1 order by name limit 10`, ['x']);
    expect(sequentialScans(plan)).toEqual(['users']);
  });
});
