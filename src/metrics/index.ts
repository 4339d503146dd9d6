/* The metrics module's public surface: what the modules that record metrics (and the app) import. */
export { MetricsModule } from './metrics.module';
export { Metrics, TRANSPORTS, type AuthRejection, type RateLimitKind, type ResetTransport, type Transport } from './metrics';
