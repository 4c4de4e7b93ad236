import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config';

const privateNetwork = proxyAddr.compile(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Fastify's `trustProxy` from TRUST_PROXY. A list names the proxies to trust. A hop count N trusts N proxies,
 * the nearest of them only when it connects from a loopback or private address (where a reverse proxy sits),
 * so a client reaching the server directly cannot pick its own address with X-Forwarded-For. Nothing is ever
 * trusted wholesale.
 */
export function trustProxyOption(
  value: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (address, hop) => hop < value && (hop > 0 || privateNetwork(address, 0));
}
