/**
 * The network scope: which networks a user counts in (the whole network and every user on its path), whose
 * records a caller may see, and what a subtree's move carries from one network to another. Used by account,
 * ledger, sales and reports alike, so it is its own module and none of them imports another for it.
 */
export { moveNetworkMoney } from './money';
export {
  childPath,
  networkScope,
  networkScopeId,
  networkScopeOfType,
  networksOfMove,
  parentPathOf,
  scopedByPath,
  scopesOf,
  WHOLE_NETWORK,
} from './scope';
