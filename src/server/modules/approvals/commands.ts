import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { UserType } from '../../../shared/enums';
import { formatRupees } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import type { AdjustInput } from '../../../shared/schemas/approvals';
import { type PayoutInput, SALES_MSG } from '../../../shared/schemas/sales';
import type { WireCommand } from '../../../shared/wire';
import type { Db, Queryable, Tx } from '../../db/open';
import { pendingCommands, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors';
import { type Actor, type AuditRecorder, auditRecorder } from '../audit/index';
import {
  foldedReference,
  InsufficientBalance,
  lockPayoutReference,
  lockWallets,
  type PostingRow,
  payoutByReference,
  payoutIn,
  replayPayout,
  writePostings,
} from '../ledger/index';

/**
 * Maker-checker (issue 43, Fineract's maker-checker): a payout above the configured line, any payout an employee
 * makes, and every manual adjustment is written as a PENDING command and moves nothing. An admin who is not its
 * maker approves it, and the command runs (through the ledger's own payout code) in the transaction that marks it
 * APPROVED; or rejects it with a reason. The command's row is locked while it is decided, so two admins approving
 * at once run it once: the second sees it APPROVED (409). An approval that would overdraw the wallet by then is
 * refused (409, the balance's message) and the command stays PENDING: the checker may approve it once money has
 * come in, or reject it.
 */

type CommandRow = typeof pendingCommands.$inferSelect;

/** Who is deciding or making: the session's user and its audit identity. */
export interface Person {
  id: string;
  type: number;
  actor: Actor;
  ip: string | null;
}

/** Whether a payout of `amountPaise` made by `maker` waits for a second person. */
export const payoutNeedsApproval = (makerType: number, amountPaise: number, abovePaise: number) =>
  makerType !== UserType.ADMIN || amountPaise > abovePaise;

const userOf = alias(users, 'command_user');
const makerOf = alias(users, 'command_maker');
const checkerOf = alias(users, 'command_checker');

const COMMAND_COLUMNS = {
  command: pendingCommands,
  user: { id: userOf.id, name: userOf.name, type: userOf.type },
  makerName: makerOf.name,
  checkerName: checkerOf.name,
};

type Joined = {
  command: CommandRow;
  user: { id: string; name: string; type: number };
  makerName: string;
  checkerName: string | null;
};

const toWire = ({ command: c, user, makerName, checkerName }: Joined): WireCommand => ({
  _id: c.id,
  kind: c.kind as WireCommand['kind'],
  status: c.status as WireCommand['status'],
  user: { _id: user.id, name: user.name, type: user.type as UserType },
  amount: paiseToRupees(c.amountPaise),
  reference: c.reference,
  reason: c.reason,
  maker: { _id: c.makerId, name: makerName },
  checker: c.checkerId ? { _id: c.checkerId, name: checkerName ?? '' } : null,
  rejectionReason: c.rejectionReason,
  postingId: c.postingId,
  createdAt: c.createdAt.toISOString(),
  decidedAt: c.decidedAt?.toISOString() ?? null,
});

function joined(q: Queryable) {
  return q
    .select(COMMAND_COLUMNS)
    .from(pendingCommands)
    .innerJoin(userOf, eq(userOf.id, pendingCommands.userId))
    .innerJoin(makerOf, eq(makerOf.id, pendingCommands.makerId))
    .leftJoin(checkerOf, eq(checkerOf.id, pendingCommands.checkerId));
}

export async function commandById(q: Queryable, id: string): Promise<WireCommand | undefined> {
  const [row] = await joined(q).where(eq(pendingCommands.id, id));
  return row ? toWire(row as Joined) : undefined;
}

export interface CommandFilter {
  status?: string;
  /** An employee reads only the commands it made. */
  makerId?: string;
}

/** A page of commands, newest first, and their number. */
export async function listCommands(
  db: Db,
  filter: CommandFilter,
  page: { limit: number; offset: number },
): Promise<{ commands: WireCommand[]; total: number }> {
  const where = and(
    filter.status ? eq(pendingCommands.status, filter.status) : undefined,
    filter.makerId ? eq(pendingCommands.makerId, filter.makerId) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    joined(db)
      .where(where)
      .orderBy(desc(pendingCommands.createdAt), desc(pendingCommands.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(pendingCommands).where(where),
  ]);
  return { commands: rows.map((r) => toWire(r as Joined)), total };
}

async function insertCommand(
  tx: Tx,
  maker: Person,
  values: Pick<CommandRow, 'kind' | 'userId' | 'amountPaise' | 'reference' | 'reason'>,
) {
  const id = randomUUID();
  await tx.insert(pendingCommands).values({ id, ...values, status: 'PENDING', makerId: maker.id });
  await auditRecorder(
    maker.actor,
    maker.ip,
    'approval.request',
    'approval',
  )(tx, {
    entityId: id,
    after: {
      kind: values.kind,
      userId: values.userId,
      amountPaise: values.amountPaise,
      reference: values.reference,
      reason: values.reason,
      status: 'PENDING',
    },
  });
  return id;
}

async function checkUser(tx: Tx, userId: string) {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound(SALES_MSG.userNotFound);
}

/**
 * A payout made for approval. Its reference stays an idempotency key: a payout already recorded under it replays
 * (`posting`), a command already made under it with the same user and amount answers again (any state but
 * REJECTED: a rejection frees the reference), and either with other content is a 409.
 */
export async function submitPayout(
  db: Db,
  maker: Person,
  input: PayoutInput,
): Promise<{ command: WireCommand } | { posting: PostingRow }> {
  return inTransaction(db, async (tx) => {
    await checkUser(tx, input.userId);
    await lockPayoutReference(tx, input.reference);
    const paid = await payoutByReference(tx, input.reference);
    if (paid) return { posting: replayPayout(paid, input).posting };
    const [held] = await tx
      .select()
      .from(pendingCommands)
      .where(
        and(
          eq(pendingCommands.kind, 'PAYOUT'),
          sql`${pendingCommands.status} <> 'REJECTED'`,
          sql`lower(btrim(${pendingCommands.reference})) = ${foldedReference(input.reference)}`,
        ),
      )
      .limit(1);
    if (held) {
      if (held.userId !== input.userId || held.amountPaise !== input.amount)
        throw conflict(SALES_MSG.referenceUsed);
      return { command: (await commandById(tx, held.id))! };
    }
    const id = await insertCommand(tx, maker, {
      kind: 'PAYOUT',
      userId: input.userId,
      amountPaise: input.amount,
      reference: input.reference.trim(),
      reason: null,
    });
    return { command: (await commandById(tx, id))! };
  });
}

/** `wallet/adjust`: always a command for approval. */
export async function submitAdjustment(db: Db, maker: Person, input: AdjustInput): Promise<WireCommand> {
  return inTransaction(db, async (tx) => {
    await checkUser(tx, input.userId);
    const id = await insertCommand(tx, maker, {
      kind: 'ADJUSTMENT',
      userId: input.userId,
      amountPaise: input.amount,
      reference: null,
      reason: input.reason,
    });
    return (await commandById(tx, id))!;
  });
}

/** The command `id`, locked for its decision, and refused unless PENDING and decided by someone else. */
async function lockForDecision(tx: Tx, id: string, checker: Person): Promise<CommandRow> {
  const [command] = await tx.select().from(pendingCommands).where(eq(pendingCommands.id, id)).for('update');
  if (!command) throw notFound(SALES_MSG.commandNotFound);
  if (command.status === 'APPROVED') throw conflict(SALES_MSG.alreadyApproved);
  if (command.status === 'REJECTED') throw conflict(SALES_MSG.alreadyRejected);
  if (command.makerId === checker.id) throw forbidden(SALES_MSG.makerCannotDecide);
  return command;
}

/** Writes an approved adjustment: a CREDIT or DEBIT of available that never takes it below zero. */
async function adjust(tx: Tx, ledgerKey: Buffer, command: CommandRow, checker: Person, audit: AuditRecorder) {
  const locked = await lockWallets(tx, [command.userId]);
  try {
    const [posting] = await writePostings(
      tx,
      locked,
      [
        {
          userId: command.userId,
          kind: 'ADJUSTMENT',
          transactionType: command.amountPaise > 0 ? 'CREDIT' : 'DEBIT',
          balanceType: 'AVAILABLE',
          status: 'ADJUSTED',
          amountPaise: Math.abs(command.amountPaise),
          reference: command.reason,
        },
      ],
      { ledgerKey, createdBy: checker.id },
    );
    await audit(tx, {
      entityId: posting.id,
      after: { userId: command.userId, amountPaise: command.amountPaise, reason: command.reason },
    });
    return posting;
  } catch (error) {
    if (error instanceof InsufficientBalance)
      throw conflict(SALES_MSG.adjustmentExceedsBalance(formatRupees(paiseToRupees(error.available))));
    throw error;
  }
}

/** `approvals/approve/:id`: runs the command and marks it APPROVED, in one transaction. */
export async function approveCommand(db: Db, ledgerKey: Buffer, id: string, checker: Person) {
  return inTransaction(db, async (tx) => {
    const command = await lockForDecision(tx, id, checker);
    const record = (action: 'wallet.payout' | 'wallet.adjust') =>
      auditRecorder(checker.actor, checker.ip, action, 'posting');
    let posting: PostingRow;
    if (command.kind === 'PAYOUT') {
      try {
        ({ posting } = await payoutIn(
          tx,
          ledgerKey,
          checker.id,
          { userId: command.userId, amount: command.amountPaise, reference: command.reference ?? '' },
          { audit: record('wallet.payout'), commandId: command.id },
        ));
      } catch (error) {
        // The balance no longer covers it: a state to wait out, not a wrong input.
        if (error instanceof HttpError && error.status === 400) throw conflict(error.message);
        throw error;
      }
    } else {
      posting = await adjust(tx, ledgerKey, command, checker, record('wallet.adjust'));
    }
    const decidedAt = new Date();
    await tx
      .update(pendingCommands)
      .set({ status: 'APPROVED', checkerId: checker.id, postingId: posting.id, decidedAt })
      .where(eq(pendingCommands.id, id));
    await auditRecorder(
      checker.actor,
      checker.ip,
      'approval.approve',
      'approval',
    )(tx, {
      entityId: id,
      before: { status: 'PENDING', makerId: command.makerId },
      after: { status: 'APPROVED', checkerId: checker.id, postingId: posting.id },
    });
    return (await commandById(tx, id))!;
  });
}

/** `approvals/reject/:id {reason}`: marks it REJECTED with the reason; nothing moves. */
export async function rejectCommand(db: Db, id: string, checker: Person, reason: string) {
  return inTransaction(db, async (tx) => {
    const command = await lockForDecision(tx, id, checker);
    await tx
      .update(pendingCommands)
      .set({ status: 'REJECTED', checkerId: checker.id, rejectionReason: reason, decidedAt: new Date() })
      .where(eq(pendingCommands.id, id));
    await auditRecorder(
      checker.actor,
      checker.ip,
      'approval.reject',
      'approval',
    )(tx, {
      entityId: id,
      before: { status: 'PENDING', makerId: command.makerId },
      after: { status: 'REJECTED', checkerId: checker.id, rejectionReason: reason },
    });
    return (await commandById(tx, id))!;
  });
}
