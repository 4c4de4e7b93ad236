/**
 * The books module's face: the Books screen's calls (issue 43, ADMIN only). The latest reconcile run (each run kept
 * in PostgreSQL, so every server shows the same), the admin's wallet, TDS payable, what wallets owe, and what
 * "settle all" would move. It reads the ledger's and the tax's figures; it moves no money.
 */

export { reconcileAndRecord } from './reconcile-runs';
export { default as booksRoutes } from './routes';
