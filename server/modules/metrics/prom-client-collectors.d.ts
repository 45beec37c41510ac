// prom-client's individual default collectors (node_modules/prom-client/lib/metrics/*.js),
// which its package ships without types: each registers its metrics on the registry given.
declare module 'prom-client/lib/metrics/*' {
  const collect: (
    registry: unknown,
    config: { prefix?: string; eventLoopMonitoringPrecision?: number },
  ) => void;
  export default collect;
}
