/**
 * Which reverse proxies to believe about the client address: none (false), the nearest `n`
 * proxies, or those at the given addresses and ranges (anything proxy-addr compiles).
 */
export type TrustProxy = false | number | string[];

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The setting as Fastify's `trustProxy` option takes it. A hop count becomes a function of the
 * hop: Fastify itself trusts no hop at all when given a number.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | TrustFunction {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}
